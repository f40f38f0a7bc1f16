import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Manifest } from '../core/wire.ts';
import { CappedBackoff } from './capped-backoff.ts';
import { type DaemonHttp } from './daemon-http.ts';
import { parseManifest } from './manifest-shape.ts';
import { SdkError } from './sdk-errors.ts';

export interface RegistrySyncOptions {
  app: string;
  mode: 'stream' | 'poll' | 'off';
  pollInterval: number;
  maxBackoff: number;
  backupFile: string | undefined;
  /** Path of the Server-Sent-Events stream of manifest changes. */
  streamPath: string;
  onManifest(manifest: Manifest, from: 'backup' | 'daemon'): void;
  onSync(info: { revision: number; changed: boolean; via: 'poll' | 'stream' }): void;
  onError(err: SdkError): void;
}

/**
 * Keeps the app's manifest current (after Unleash's repository): ETag polling with capped
 * backoff, or an SSE stream that reconnects with capped backoff and falls back to polling when
 * the daemon has no stream. 401/403 stop everything with an error: a wrong token will not fix
 * itself and hammering the daemon with it helps nobody. The last good manifest goes to the
 * backup file so a restart without the daemon still runs known patches.
 */
export class RegistrySync {
  readonly #http: DaemonHttp;
  readonly #o: RegistrySyncOptions;
  readonly #backoff: CappedBackoff;
  #etag: string | null = null;
  #revision = -1;
  #timer: NodeJS.Timeout | null = null;
  #stream: ClientRequest | null = null;
  #stopped = false;
  #mode: 'stream' | 'poll' | 'off';
  #saving: Promise<void> = Promise.resolve();

  constructor(http: DaemonHttp, o: RegistrySyncOptions) {
    this.#http = http;
    this.#o = o;
    this.#mode = o.mode;
    this.#backoff = new CappedBackoff(Math.min(1000, o.pollInterval), o.maxBackoff);
  }

  get revision(): number {
    return this.#revision;
  }

  /** Loads the backup file (synchronously, so the first call already sees its patches) and starts syncing. */
  start(): void {
    this.#loadBackup();
    if (this.#mode === 'off') return;
    if (this.#mode === 'stream') this.#openStream();
    else void this.#poll();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#stream?.destroy();
    this.#stream = null;
  }

  /** Waits for a pending backup write (close() uses it). */
  async settled(): Promise<void> {
    await this.#saving;
  }

  /** Fetches the manifest now (used on stream notifications and by tests). */
  async refresh(): Promise<void> {
    await this.#fetch('stream');
  }

  #loadBackup(): void {
    const file = this.#o.backupFile;
    if (!file) return;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.#o.onError(new SdkError('SUTURE_BACKUP_FAILED', `could not read backup file ${file}`, { cause: err }));
      }
      return;
    }
    let m: Manifest | null = null;
    try {
      m = parseManifest(JSON.parse(text), this.#o.app);
    } catch {
      m = null;
    }
    if (!m) {
      this.#o.onError(new SdkError('SUTURE_BACKUP_FAILED', `backup file ${file} does not hold a manifest for app ${this.#o.app}`));
      return;
    }
    this.#revision = m.revision;
    this.#o.onManifest(m, 'backup');
  }

  /**
   * A manifest older than the one already applied is a replay (or a stale cache in between):
   * applying it would bring back patches that were rolled back since. Refused, with an event.
   */
  #refuseOlder(m: Manifest): boolean {
    if (m.revision >= this.#revision) return false;
    this.#o.onError(new SdkError('SUTURE_MANIFEST_INVALID', `daemon sent manifest revision ${m.revision}, older than revision ${this.#revision} already applied; refused`));
    return true;
  }

  #saveBackup(m: Manifest): void {
    const file = this.#o.backupFile;
    if (!file) return;
    const tmp = `${file}.${process.pid}.tmp`;
    this.#saving = this.#saving
      .then(() => writeFile(tmp, JSON.stringify(m)))
      .then(() => rename(tmp, file))
      .catch((err: unknown) => this.#o.onError(new SdkError('SUTURE_BACKUP_FAILED', `could not write backup file ${file}`, { cause: err })));
  }

  #scheduleRetry(delay: number, what: () => void): void {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      what();
    }, delay);
    this.#timer.unref();
  }

  #unauthorized(status: number): void {
    this.#o.onError(
      new SdkError('SUTURE_SYNC_UNAUTHORIZED', `daemon refused the app token (HTTP ${status}); manifest sync stopped, known patches keep running`),
    );
    this.stop();
  }

  /** One GET of the manifest; returns false when it failed in a way worth backing off for. */
  async #fetch(via: 'poll' | 'stream'): Promise<boolean> {
    if (this.#stopped) return true;
    let res;
    try {
      res = await this.#http.request('GET', `/v1/manifest?app=${encodeURIComponent(this.#o.app)}`, {
        headers: this.#etag ? { 'if-none-match': this.#etag } : {},
      });
    } catch (err) {
      this.#o.onError(new SdkError('SUTURE_SYNC_FAILED', `manifest fetch failed: ${(err as Error).message}`, { cause: err }));
      return false;
    }
    if (this.#stopped) return true;
    if (res.status === 401 || res.status === 403) {
      this.#unauthorized(res.status);
      return true;
    }
    if (res.status === 304) {
      this.#o.onSync({ revision: this.#revision, changed: false, via });
      return true;
    }
    if (res.status !== 200) {
      this.#o.onError(new SdkError('SUTURE_SYNC_FAILED', `manifest fetch answered HTTP ${res.status}`));
      return false;
    }
    const m = parseManifest(res.body, this.#o.app);
    if (!m) {
      this.#o.onError(new SdkError('SUTURE_MANIFEST_INVALID', 'daemon sent a manifest that is not valid; keeping the last good one'));
      return false;
    }
    if (this.#refuseOlder(m)) return true;
    this.#etag = res.etag;
    const changed = m.revision !== this.#revision;
    this.#revision = m.revision;
    if (changed) {
      this.#o.onManifest(m, 'daemon');
      this.#saveBackup(m);
    }
    this.#o.onSync({ revision: m.revision, changed, via });
    return true;
  }

  async #poll(): Promise<void> {
    const ok = await this.#fetch('poll');
    if (ok) this.#backoff.reset();
    this.#scheduleRetry(ok ? this.#o.pollInterval : Math.max(this.#o.pollInterval, this.#backoff.next()), () => void this.#poll());
  }

  #openStream(): void {
    if (this.#stopped) return;
    const url = new URL(this.#http.url(`${this.#o.streamPath}?app=${encodeURIComponent(this.#o.app)}`));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers: Record<string, string> = { ...this.#http.authHeaders(), accept: 'text/event-stream' };
    const retry = (): void => {
      if (this.#stream !== req) return;
      this.#stream = null;
      // The stream may have missed a change while down; fetch once on every reconnect.
      this.#scheduleRetry(this.#backoff.next(), () => this.#openStream());
    };
    const req = send(url, { method: 'GET', headers }, (res: IncomingMessage) => {
      res.socket.unref();
      if (res.statusCode === 401 || res.statusCode === 403) {
        res.resume();
        this.#stream = null;
        this.#unauthorized(res.statusCode);
        return;
      }
      if (res.statusCode === 404 || res.statusCode === 405) {
        // No stream on this daemon: poll instead.
        res.resume();
        this.#stream = null;
        this.#mode = 'poll';
        void this.#poll();
        return;
      }
      if (res.statusCode !== 200) {
        res.resume();
        this.#o.onError(new SdkError('SUTURE_SYNC_FAILED', `manifest stream answered HTTP ${res.statusCode}`));
        return;
      }
      void this.#fetch('stream').then((ok) => ok && this.#backoff.reset());
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (chunk: string) => {
        buf += chunk;
        let at: number;
        while ((at = buf.search(/\r?\n\r?\n/)) >= 0) {
          const event = buf.slice(0, at);
          buf = buf.slice(at).replace(/^\r?\n\r?\n/, '');
          this.#onStreamEvent(event);
        }
        if (buf.length > 10_000_000) res.destroy(); // garbage: reconnect rather than grow
      });
      res.on('close', retry);
      res.on('error', () => undefined);
    });
    req.on('socket', (s) => s.unref());
    req.on('error', (err) => {
      if (this.#stopped) return;
      this.#o.onError(new SdkError('SUTURE_SYNC_FAILED', `manifest stream failed: ${err.message}`, { cause: err }));
      retry();
    });
    req.end();
    this.#stream = req;
  }

  #onStreamEvent(text: string): void {
    const data = text
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '') return; // comment / keep-alive
    let body: unknown;
    try {
      body = JSON.parse(data);
    } catch {
      body = undefined;
    }
    const m = parseManifest(body, this.#o.app);
    if (m && this.#refuseOlder(m)) return;
    if (m && m.revision !== this.#revision) {
      this.#revision = m.revision;
      this.#etag = null;
      this.#o.onManifest(m, 'daemon');
      this.#saveBackup(m);
      this.#o.onSync({ revision: m.revision, changed: true, via: 'stream' });
    } else if (!m) {
      // A notification without the manifest itself (e.g. {"revision": n}): fetch it.
      const rev = body && typeof body === 'object' ? (body as { revision?: unknown }).revision : undefined;
      if (rev !== this.#revision) void this.#fetch('stream');
    }
  }
}
