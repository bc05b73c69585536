import { describe, expect, it } from 'vitest';
import { AppError, type SandboxCredential } from '@agentry/contracts';
import type { Logger, RpcClient } from '@agentry/platform';
import type { WorkerEnv } from '../config/env.js';
import { CredentialsUnavailableError, SandboxCredentialsClient } from './sandbox-credentials.client.js';

const quiet = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Logger;
const CREDENTIAL: SandboxCredential = {
  credential_id: 'vcrd_1',
  secret_name: 'API_TOKEN',
  secret_value: 'tok_placeholder_for_test',
  networking: { type: 'limited', allowed_hosts: ['api.example.com'] },
  injection_location: { header: true, body: false },
};

/** Control as the worker reaches it: each request answered by the next of `answers` (an error is thrown). */
function control(answers: Array<Error | 'ok'>) {
  const asked: number[] = [];
  const rpc = {
    request: () => {
      asked.push(asked.length);
      const answer = answers[Math.min(asked.length - 1, answers.length - 1)]!;
      if (answer instanceof Error) return Promise.reject(answer);
      return Promise.resolve({ credentials: [CREDENTIAL] });
    },
  } as unknown as RpcClient;
  return { rpc, asked };
}

const lost = () => new AppError('UNAVAILABLE', 'The control service did not answer', { retryable: true });
const clientOf = (rpc: RpcClient, waitMs: number) =>
  new SandboxCredentialsClient(rpc, { AGENTRY_CREDENTIALS_WAIT_MS: waitMs } as WorkerEnv, quiet);

describe("a sandbox's vault credentials", () => {
  it('are asked for again when a request is lost (NATS restarting), and arrive', async () => {
    const { rpc, asked } = control([lost(), lost(), 'ok']);
    expect(await clientOf(rpc, 5_000).of('ten_1', 'sesn_1')).toEqual([CREDENTIAL]);
    expect(asked).toHaveLength(3);
  });

  it('fail the call once the wait is over, rather than let it run without them', async () => {
    const { rpc } = control([lost()]);
    await expect(clientOf(rpc, 600).of('ten_1', 'sesn_1')).rejects.toBeInstanceOf(
      CredentialsUnavailableError,
    );
  });

  it('fail at once on an error asking again would not cure', async () => {
    const { rpc, asked } = control([new AppError('BAD_REPLY', 'bad reply')]);
    await expect(clientOf(rpc, 5_000).of('ten_1', 'sesn_1')).rejects.toBeInstanceOf(
      CredentialsUnavailableError,
    );
    expect(asked).toHaveLength(1);
  });
});
