import { Alert, Badge, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api';
import { useAuth } from '../../auth/auth-context';
import { QueryState } from '../../components/states';

interface MemoryVersion {
  id: string;
  operation: 'created' | 'modified' | 'deleted';
  content?: string | null;
  created_at: string;
  redacted_at?: string | null;
  created_by?: { type: string } & Record<string, string>;
}

/** Who wrote a version, in words. */
function authorOf(version: MemoryVersion): string {
  const actor = version.created_by;
  if (!actor) return '';
  if (actor.type === 'session_actor') return `session ${actor.session_id}`;
  if (actor.type === 'user_actor') return `user ${actor.user_id}`;
  if (actor.type === 'api_actor') return `API key ${actor.api_key_id}`;
  return actor.type;
}

/** A memory's current content and every version of it, newest first; editors can redact a version. */
export function MemoryVersions({ storeId, memoryId }: { storeId: string; memoryId: string }) {
  const api = useApi();
  const queries = useQueryClient();
  const { canEdit } = useAuth();
  const key = ['memory-store', storeId, 'memory', memoryId];
  const memory = useQuery({
    queryKey: key,
    queryFn: () =>
      api.call<{ path: string; content?: string | null }>(
        'GET',
        `/v1/memory_stores/${storeId}/memories/${memoryId}`,
        undefined,
        { view: 'full' },
      ),
  });
  const versions = useQuery({
    queryKey: [...key, 'versions'],
    queryFn: () =>
      api.call<{ data: MemoryVersion[] }>('GET', `/v1/memory_stores/${storeId}/memory_versions`, undefined, {
        memory_id: memoryId,
        view: 'full',
        limit: 100,
      }),
  });
  const redact = useMutation({
    mutationFn: (versionId: string) =>
      api.call('POST', `/v1/memory_stores/${storeId}/memory_versions/${versionId}/redact`, {}),
    onSuccess: () => queries.invalidateQueries({ queryKey: key }),
  });
  return (
    <Stack>
      <QueryState query={memory}>
        {(data) => (
          <Paper withBorder p="md">
            <Title order={3}>{data.path}</Title>
            <Code block aria-label="Current content">
              {data.content ?? ''}
            </Code>
          </Paper>
        )}
      </QueryState>
      <Title order={3}>Versions</Title>
      {canEdit ? (
        <Text size="sm" c="dimmed">
          Redacting erases this memory&apos;s content in every version and empties it; who changed it and when
          stay in the history.
        </Text>
      ) : null}
      {redact.error ? (
        <Alert color="red" role="alert">
          {redact.error.message}
        </Alert>
      ) : null}
      <QueryState query={versions}>
        {({ data }) => (
          <Stack gap="xs" role="list" aria-label="Versions">
            {data.map((version) => (
              <Paper key={version.id} withBorder p="sm" role="listitem">
                <Group justify="space-between">
                  <Group gap="xs">
                    <Badge variant="light">{version.operation}</Badge>
                    <Text size="sm">{new Date(version.created_at).toLocaleString()}</Text>
                    <Text size="sm" c="dimmed">
                      {authorOf(version)}
                    </Text>
                  </Group>
                  {version.redacted_at ? (
                    <Badge color="gray">redacted</Badge>
                  ) : canEdit && version.operation !== 'deleted' ? (
                    <Button size="xs" variant="default" color="red" onClick={() => redact.mutate(version.id)}>
                      Redact
                    </Button>
                  ) : null}
                </Group>
                {version.redacted_at ? null : <Code block>{version.content ?? ''}</Code>}
              </Paper>
            ))}
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
