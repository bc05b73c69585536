import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AccessChangedSchema,
  ControlSubjects as A,
  ControlSubjects as S,
  ControlSubjects as T,
  PubSubjects,
  type ParsedAccessChanged,
} from '@agentry/contracts';
import { NatsBus } from '@agentry/platform';
import { testNatsUrl } from '@agentry/testing';
import { startControl, type ControlTestApp } from './control-test-app.js';

/**
 * Gateways cache who a credential acts as; they stay correct only if control announces every change
 * that can revoke or narrow access. Each such change must publish `access.changed` naming whom it touched.
 */
describe('control: access changes are announced on NATS', () => {
  let control: ControlTestApp;
  let bus: NatsBus;
  let heard: ParsedAccessChanged[] = [];
  let stop: () => void = () => undefined;

  /** Runs `change` and returns what was announced because of it. */
  const announced = async (change: () => Promise<unknown>): Promise<ParsedAccessChanged[]> => {
    heard = [];
    await change();
    await vi.waitFor(() => expect(heard).not.toHaveLength(0), { timeout: 5_000 });
    return heard;
  };

  beforeAll(async () => {
    control = await startControl();
    bus = await NatsBus.connect(testNatsUrl(), control.prefix, 'access-changes-test');
    stop = bus.subscribe(PubSubjects.accessChanged, (message) =>
      heard.push(AccessChangedSchema.parse(message)),
    );
    await bus.flush();
  });
  afterAll(async () => {
    stop();
    await bus?.close();
    await control?.close();
  });

  it('announces key revocations, user updates, password changes, membership changes and namespace creation', async () => {
    const tenantId = control.admin.tenantId;
    const team = await control.rpc.request(A.createNamespace, {
      actor: control.admin,
      body: { name: 'Team', slug: 'team' },
    });
    const user = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'ann', password: 'ann-pass-1' },
    });
    const ann = await control.rpc.request(A.resolveUser, { userId: user.id });
    const key = await control.rpc.request(A.createApiKey, {
      actor: ann,
      body: { name: 'k', permissions: ['read'] },
    });

    expect(await announced(() => control.rpc.request(A.revokeApiKey, { actor: ann, id: key.id }))).toEqual([
      { v: 1, tenantId, apiKeyId: key.id },
    ]);
    const byUser = [{ v: 1, tenantId, userId: user.id }];
    expect(
      await announced(() =>
        control.rpc.request(A.updateUser, { actor: control.admin, id: user.id, body: { role: 'viewer' } }),
      ),
    ).toEqual(byUser);
    expect(
      await announced(() =>
        control.rpc.request(A.changePassword, {
          actor: ann,
          body: { currentPassword: 'ann-pass-1', newPassword: 'ann-pass-2' },
        }),
      ),
    ).toEqual(byUser);
    const member = { actor: control.admin, id: team.id, userId: user.id };
    expect(
      await announced(() =>
        control.rpc.request(T.addMember, {
          actor: control.admin,
          id: team.id,
          body: { userId: user.id, role: 'member' },
        }),
      ),
    ).toEqual(byUser);
    expect(
      await announced(() => control.rpc.request(T.updateMember, { ...member, body: { role: 'viewer' } })),
    ).toEqual(byUser);
    expect(await announced(() => control.rpc.request(T.removeMember, member))).toEqual(byUser);
    expect(
      await announced(() =>
        control.rpc.request(A.createNamespace, {
          actor: control.admin,
          body: { name: 'More', slug: 'more' },
        }),
      ),
    ).toEqual([{ v: 1, tenantId, userId: control.admin.userId }]);
    // A verification changes no access. Announcements arrive in order: once those of a later change are
    // heard, one the verification made would have been heard too.
    expect(
      await announced(async () => {
        await control.rpc.request(S.verifyApiKey, { key: key.key }).catch(() => null);
        await control.rpc.request(A.updateUser, {
          actor: control.admin,
          id: user.id,
          body: { role: 'member' },
        });
      }),
    ).toEqual(byUser);
  });
});
