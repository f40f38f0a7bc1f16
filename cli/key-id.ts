import { createHash, createPublicKey } from 'node:crypto';

/**
 * The key id: a short, stable name of a public key, SHA-256 of its DER (SPKI) encoding, first 16 hex
 * digits in pairs. (Not a "fingerprint": in suture that word names a bug.)
 */
export function publicKeyId(pem: string): string {
  const der = createPublicKey(pem).export({ type: 'spki', format: 'der' });
  const hex = createHash('sha256').update(der).digest('hex').slice(0, 16);
  return `SHA256:${hex.match(/../g)!.join(':')}`;
}
