import { Alert, Button, Center, Paper, PasswordInput, Stack, Tabs, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { baseUrl } from '../api/use-api';
import { useAuth } from '../auth/auth-context';

/** Sign in with a user name and password (a user token), or with an API key. */
export function LoginPage() {
  const { signIn } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // The form's handler runs to its end on its own: every failure it meets is shown as the error.
  const submit = (handler: (form: FormData) => Promise<void>) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const form = new FormData(event.currentTarget);
    void (async () => {
      try {
        await handler(form);
      } catch (caught) {
        setError(caught instanceof Error ? caught.message : String(caught));
      } finally {
        setBusy(false);
      }
    })();
  };

  const withPassword = submit(async (form) => {
    const response = await fetch(`${baseUrl()}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: form.get('username'), password: form.get('password') }),
    });
    const body = (await response.json()) as {
      token?: string;
      username?: string;
      roles?: string[];
      error?: { message: string };
    };
    if (!response.ok || !body.token) throw new Error(body.error?.message ?? 'Sign-in failed');
    signIn({
      token: body.token,
      username: body.username ?? textField(form, 'username'),
      role: body.roles?.[0] ?? 'member',
    });
  });

  const withKey = submit(async (form) => {
    const apiKey = textField(form, 'apiKey').trim();
    const response = await fetch(`${baseUrl()}/v1/agents?limit=1`, { headers: { 'x-api-key': apiKey } });
    if (!response.ok) throw new Error('That API key was not accepted');
    signIn({ apiKey, username: 'API key', role: 'api-key' });
  });

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={380}>
        <Stack>
          <Title order={1} size="h3">
            Sign in to Agentry
          </Title>
          {error ? (
            <Alert color="red" role="alert" title="Not signed in">
              {error}
            </Alert>
          ) : null}
          <Tabs defaultValue="password">
            <Tabs.List grow>
              <Tabs.Tab value="password">With a password</Tabs.Tab>
              <Tabs.Tab value="key">With an API key</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="password" pt="md">
              <form onSubmit={withPassword}>
                <Stack>
                  <TextInput name="username" label="User name" autoComplete="username" required />
                  <PasswordInput name="password" label="Password" autoComplete="current-password" required />
                  <Button type="submit" loading={busy}>
                    Sign in
                  </Button>
                </Stack>
              </form>
            </Tabs.Panel>
            <Tabs.Panel value="key" pt="md">
              <form onSubmit={withKey}>
                <Stack>
                  <PasswordInput name="apiKey" label="API key" required />
                  <Button type="submit" loading={busy}>
                    Sign in with key
                  </Button>
                </Stack>
              </form>
            </Tabs.Panel>
          </Tabs>
        </Stack>
      </Paper>
    </Center>
  );
}

/** A text input's value ('' when the form has no such field). */
function textField(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
