/** The redaction moved to core/ so that the SDK applies it to snapshot values too. */
export { redactSecrets } from '../../../core/secret-redaction.ts';
