/** UTF-8 text as unpadded base64url. */
export function toBase64Url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

/**
 * The UTF-8 text inside base64url (or base64). Node's decoder is lenient: characters outside the alphabet
 * are skipped and the first `=` ends the input, so a forged value decodes to text the caller validates
 * rather than throwing.
 */
export function fromBase64Url(encoded: string): string {
  return Buffer.from(encoded, 'base64url').toString('utf8');
}
