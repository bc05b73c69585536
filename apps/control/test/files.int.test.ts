import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ControlSubjects as S } from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';

describe('control: files over NATS', () => {
  let control: ControlTestApp;
  beforeAll(async () => {
    control = await startControl({ AGENTRY_FILE_MAX_BYTES: '1024' });
  });
  afterAll(async () => {
    await control?.close();
  });

  const upload = (bytes: Buffer, filename = 'report.csv') =>
    control.rpc.request(S.uploadFile, {
      actor: control.admin,
      body: { filename, mime_type: 'text/csv', content_base64: bytes.toString('base64') },
    });

  it('stores the bytes and gives them back unchanged', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13]);
    const file = await upload(bytes, '../../etc/evil/report.bin');
    expect(file).toMatchObject({
      type: 'file',
      filename: 'report.bin',
      mime_type: 'text/csv',
      size_bytes: 7,
    });
    expect(await control.rpc.request(S.getFile, { actor: control.admin, id: file.id })).toEqual(file);
    const content = await control.rpc.request(S.downloadFile, { actor: control.admin, id: file.id });
    expect(Buffer.from(content.content_base64, 'base64').equals(bytes)).toBe(true);
  });

  it('refuses a file over the configured limit and stores nothing', async () => {
    const before = await control.db.prisma.file.count();
    await expect(upload(Buffer.alloc(1025))).rejects.toSatisfy(
      (e) => AppError.is(e, 'PAYLOAD_TOO_LARGE') && /1024 bytes/.test((e as Error).message),
    );
    expect(await control.db.prisma.file.count()).toBe(before);
  });

  it('lists by id and deletes: a deleted file is gone, bytes included', async () => {
    const a = await upload(Buffer.from('a'));
    const b = await upload(Buffer.from('b'));
    const listed = await control.rpc.request(S.listFiles, { actor: control.admin, query: { ids: [a.id] } });
    expect(listed.data.map((f) => f.id)).toEqual([a.id]);
    expect(await control.rpc.request(S.deleteFile, { actor: control.admin, id: a.id })).toEqual({
      id: a.id,
      type: 'file_deleted',
    });
    await expect(control.rpc.request(S.downloadFile, { actor: control.admin, id: a.id })).rejects.toSatisfy(
      (e) => AppError.is(e, 'NOT_FOUND'),
    );
    const all = await control.rpc.request(S.listFiles, { actor: control.admin, query: { limit: 100 } });
    expect(all.data.map((f) => f.id)).toContain(b.id);
    expect(all.data.map((f) => f.id)).not.toContain(a.id);
    const row = await control.db.prisma.file.findUniqueOrThrow({ where: { id: a.id } });
    expect(row.content).toBeNull();
  });
});
