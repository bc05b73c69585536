// Runtime-neutral base64url (no Buffer), so the contracts also load outside Node.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** UTF-8 text as unpadded base64url. */
export function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += ALPHABET.charAt((chunk >> (18 - 6 * c)) & 63);
  }
  return out;
}

/**
 * The UTF-8 text inside base64url (or base64). Lenient the way Node's Buffer is: characters outside the
 * alphabet are skipped and the first `=` ends the input, so a forged value decodes to text the caller
 * validates rather than throwing.
 */
export function fromBase64Url(encoded: string): string {
  const end = encoded.indexOf('=');
  const digits: number[] = [];
  for (const ch of end < 0 ? encoded : encoded.slice(0, end)) {
    const digit = ch === '+' ? 62 : ch === '/' ? 63 : ALPHABET.indexOf(ch);
    if (digit >= 0) digits.push(digit);
  }
  const bytes: number[] = [];
  for (let i = 0; i + 1 < digits.length; i += 4) {
    const group = digits.slice(i, i + 4);
    const chunk = group.reduce((acc, d, k) => acc | (d << (18 - 6 * k)), 0);
    const count = group.length - 1;
    for (let b = 0; b < count; b++) bytes.push((chunk >> (16 - 8 * b)) & 255);
  }
  return new TextDecoder().decode(Uint8Array.from(bytes));
}
