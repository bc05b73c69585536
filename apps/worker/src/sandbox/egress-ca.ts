import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isIP } from 'node:net';
import forge from 'node-forge';
import type { Clock } from '@agentry/platform';

/** Where the sandbox finds the certificates that make it trust the egress proxy. */
export const CA_MOUNT = '/run/agentry/ca';
export const CA_CERT_NAME = 'agentry-egress-ca.crt';
export const CA_BUNDLE_NAME = 'ca-bundle.crt';

/** The system bundles a combined bundle starts from, first found wins (Debian, RHEL, Alpine). */
const SYSTEM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/cert.pem',
];

/** The worker's own trust store, which sandboxes and package builds trust too (an installation's own CAs included). */
export function systemBundle(): string | undefined {
  return SYSTEM_BUNDLES.find((path) => existsSync(path));
}

const LEAF_DAYS = 30;
const CA_YEARS = 10;

export interface EgressCaFiles {
  certFile: string;
  keyFile: string;
}

/**
 * The installation's egress CA: the worker's proxy presents certificates it signs when it opens HTTPS
 * to swap credentials in, and every sandbox trusts it. The key stays with the worker (never bound into a
 * sandbox); when the files are absent a CA is generated and kept there, so sandboxes keep trusting it.
 */
export class EgressCa {
  private readonly leaves = new Map<string, { key: string; cert: string }>();
  private leafKey: forge.pki.rsa.KeyPair | undefined;

  private constructor(
    readonly certPem: string,
    private readonly cert: forge.pki.Certificate,
    private readonly key: forge.pki.rsa.PrivateKey,
    /** Host files for the sandbox: the CA alone and the system bundle with the CA appended. */
    readonly certFile: string,
    readonly bundleFile: string,
    private readonly clock: Clock,
  ) {}

  static async load(files: EgressCaFiles, clock: Clock): Promise<EgressCa> {
    if (!existsSync(files.certFile) || !existsSync(files.keyFile)) await generate(files, clock.nowMs());
    const certPem = await readFile(files.certFile, 'utf8');
    const keyPem = await readFile(files.keyFile, 'utf8');
    const cert = forge.pki.certificateFromPem(certPem);
    const key = forge.pki.privateKeyFromPem(keyPem);
    const bundleFile = join(dirname(files.certFile), CA_BUNDLE_NAME);
    const system = systemBundle();
    const systemPem = system ? await readFile(system, 'utf8') : '';
    await writeFile(bundleFile, `${systemPem.replace(/\n*$/, '\n')}${certPem}`, { mode: 0o644 });
    return new EgressCa(certPem, cert, key, files.certFile, bundleFile, clock);
  }

  /** A certificate for `host` signed by the CA, with the CA appended as its chain; made once per host. */
  leafFor(host: string): { key: string; cert: string } {
    const known = this.leaves.get(host);
    if (known) return known;
    this.leafKey ??= forge.pki.rsa.generateKeyPair(2048);
    const cert = forge.pki.createCertificate();
    cert.publicKey = this.leafKey.publicKey;
    cert.serialNumber = serial();
    const now = this.clock.nowMs();
    cert.validity.notBefore = new Date(now - 3600_000);
    cert.validity.notAfter = new Date(now + LEAF_DAYS * 86400_000);
    cert.setSubject([{ name: 'commonName', value: host.slice(0, 64) }]);
    cert.setIssuer(this.cert.subject.attributes);
    cert.setExtensions([
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [isIP(host) ? { type: 7, ip: host } : { type: 2, value: host }] },
    ]);
    cert.sign(this.key, forge.md.sha256.create());
    const leaf = {
      key: forge.pki.privateKeyToPem(this.leafKey.privateKey),
      cert: `${forge.pki.certificateToPem(cert)}${this.certPem}`,
    };
    this.leaves.set(host, leaf);
    return leaf;
  }
}

async function generate(files: EgressCaFiles, now: number): Promise<void> {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now - 3600_000);
  cert.validity.notAfter = new Date(now + CA_YEARS * 365 * 86400_000);
  const subject = [
    { name: 'commonName', value: 'Agentry sandbox egress CA' },
    { name: 'organizationName', value: 'Agentry' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  await mkdir(dirname(files.keyFile), { recursive: true, mode: 0o700 });
  await mkdir(dirname(files.certFile), { recursive: true, mode: 0o755 });
  await writeFile(files.keyFile, forge.pki.privateKeyToPem(keys.privateKey), { mode: 0o600, flag: 'wx' });
  await writeFile(files.certFile, forge.pki.certificateToPem(cert), { mode: 0o644, flag: 'wx' });
}

/** A positive random serial (the high bit clear so DER does not read it as negative). */
function serial(): string {
  const bytes = randomBytes(16);
  bytes[0]! &= 0x7f;
  return bytes.toString('hex');
}
