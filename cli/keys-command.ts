import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { AdminError, EXIT } from './admin-client.ts';
import { adminCommand, runAdmin } from './admin-command.ts';
import { publicKeyId } from './key-id.ts';

/** Writes a new Ed25519 pair as `signing-key.pem` (0600) and `public-key.pem`; never overwrites. */
export function generateKeyPair(dir: string): { privateFile: string; publicFile: string; publicKeyPem: string } {
  const privateFile = join(dir, 'signing-key.pem');
  const publicFile = join(dir, 'public-key.pem');
  for (const f of [privateFile, publicFile]) {
    if (existsSync(f)) throw new AdminError(`${f} exists; refusing to overwrite a key (patches signed with it would no longer verify)`, 'SUTURE_KEY_EXISTS', EXIT.refused);
  }
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(privateFile, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), { flag: 'wx', mode: 0o600 });
  writeFileSync(publicFile, publicKeyPem, { flag: 'wx', mode: 0o644 });
  return { privateFile, publicFile, publicKeyPem };
}

export function keysCommand(): Command {
  return adminCommand('keys', 'Print the daemon\'s patch-signing public key (for the SDK\'s publicKey option), or generate a key pair')
    .option('--generate <dir>', 'write a new Ed25519 key pair into DIR (signing-key.pem for SUTURE_SIGNING_KEY_FILE, public-key.pem for the SDK) instead')
    .option('--json', 'print {publicKey, keyId} as JSON')
    .action(async (opts) => {
      await runAdmin('keys', opts, async (client) => {
        if (opts.generate) {
          const g = generateKeyPair(resolve(opts.generate));
          process.stdout.write(opts.json
            ? `${JSON.stringify({ publicKey: g.publicKeyPem, keyId: publicKeyId(g.publicKeyPem), privateFile: g.privateFile, publicFile: g.publicFile }, null, 2)}\n`
            : `wrote ${g.privateFile} (private: give it to every daemon and worker as SUTURE_SIGNING_KEY_FILE)\nwrote ${g.publicFile} (public: the SDK's publicKey option)\nkey id ${publicKeyId(g.publicKeyPem)}\n`);
          return;
        }
        const { publicKey } = await client.getPublic<{ publicKey: string }>('/v1/public-key');
        process.stdout.write(opts.json ? `${JSON.stringify({ publicKey, keyId: publicKeyId(publicKey) }, null, 2)}\n` : `${publicKey.trimEnd()}\nkey id ${publicKeyId(publicKey)}\n`);
      });
    });
}
