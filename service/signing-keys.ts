import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SigningKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** SPKI PEM of the public key, as served at GET /v1/public-key. */
  publicKeyPem: string;
  /** Where the private key came from. */
  origin: string;
}

/** The signing key is unusable (not Ed25519, not PEM, unreadable). */
export class SigningKeyError extends Error {
  readonly code = 'SUTURE_SIGNING_KEY';
  constructor(message: string) {
    super(message);
    this.name = 'SigningKeyError';
  }
}

function fromPem(pem: string, origin: string): SigningKeys {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (error) {
    throw new SigningKeyError(`${origin}: not a PEM private key (${(error as Error).message})`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new SigningKeyError(`${origin}: an ${privateKey.asymmetricKeyType} key; patches are signed with Ed25519`);
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), origin };
}

/**
 * Loads the Ed25519 key pair: from `keyFile` when given, else `<dataDir>/signing-key.pem`,
 * generated on first start (created exclusively, so a daemon and a worker starting together on
 * one machine end up with the same key).
 */
export function loadSigningKeys(options: { dataDir: string; keyFile?: string }): SigningKeys {
  if (options.keyFile) {
    let pem: string;
    try {
      pem = readFileSync(options.keyFile, 'utf8');
    } catch (error) {
      throw new SigningKeyError(`signingKeyFile ${options.keyFile}: ${(error as Error).message}`);
    }
    return fromPem(pem, options.keyFile);
  }
  const file = join(options.dataDir, 'signing-key.pem');
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  try {
    return fromPem(readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  try {
    writeFileSync(file, pem, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return fromPem(readFileSync(file, 'utf8'), file);
  }
  const keys = fromPem(pem, `${file} (generated)`);
  writeFileSync(join(options.dataDir, 'public-key.pem'), keys.publicKeyPem);
  return keys;
}
