import { Alert, Badge, Button, Code, Group, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useApi } from '../../api/use-api';
import { useAuth } from '../../auth/auth-context';
import { QueryState } from '../../components/states';
import type { AgentBody } from './agent-form';
import { VersionDiff } from './version-diff';

/** One agent: its current definition, its versions with a diff between them, and archive. */
export function AgentPage() {
  const { id } = useParams();
  const api = useApi();
  const queries = useQueryClient();
  const { canEdit } = useAuth();
  const agent = useQuery({
    queryKey: ['agent', id],
    queryFn: () => api.call<AgentBody>('GET', `/v1/agents/${id}`),
  });
  const versions = useQuery({
    queryKey: ['agent', id, 'versions'],
    queryFn: () =>
      api.call<{ data: { version: number }[] }>('GET', `/v1/agents/${id}/versions`, undefined, {
        limit: 100,
      }),
  });
  const archive = useMutation({
    mutationFn: () => api.call('POST', `/v1/agents/${id}/archive`),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['agent', id] }),
  });
  return (
    <QueryState query={agent}>
      {(data) => (
        <Stack>
          <Group justify="space-between">
            <Group>
              <Title order={2}>{data.name}</Title>
              <Badge variant="light">version {data.version}</Badge>
              {data.archived_at ? <Badge color="gray">archived</Badge> : null}
            </Group>
            {canEdit && !data.archived_at ? (
              <Group>
                <Button component={Link} to={`/agents/${id}/edit`}>
                  Edit
                </Button>
                <Button
                  variant="default"
                  color="red"
                  loading={archive.isPending}
                  onClick={() => archive.mutate()}
                >
                  Archive
                </Button>
              </Group>
            ) : null}
          </Group>
          {archive.error ? (
            <Alert color="red" role="alert">
              {archive.error.message}
            </Alert>
          ) : null}
          <Tabs defaultValue="definition">
            <Tabs.List>
              <Tabs.Tab value="definition">Definition</Tabs.Tab>
              <Tabs.Tab value="versions">Versions</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="definition" pt="md">
              <Table variant="vertical" layout="fixed" withTableBorder>
                <Table.Tbody>
                  <Table.Tr>
                    <Table.Th w={180}>Model</Table.Th>
                    <Table.Td>{typeof data.model === 'string' ? data.model : data.model?.id}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>System prompt</Table.Th>
                    <Table.Td style={{ whiteSpace: 'pre-wrap' }}>
                      {data.system || <Text c="dimmed">none</Text>}
                    </Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>Tools</Table.Th>
                    <Table.Td>
                      <Code block>{JSON.stringify(data.tools, null, 2)}</Code>
                    </Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>MCP servers</Table.Th>
                    <Table.Td>
                      {data.mcp_servers?.length ? (
                        <Code block>{JSON.stringify(data.mcp_servers, null, 2)}</Code>
                      ) : (
                        'none'
                      )}
                    </Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>Skills</Table.Th>
                    <Table.Td>
                      {data.skills?.length ? (
                        <Code block>{JSON.stringify(data.skills, null, 2)}</Code>
                      ) : (
                        'none'
                      )}
                    </Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            </Tabs.Panel>
            <Tabs.Panel value="versions" pt="md">
              <QueryState query={versions}>
                {(page) =>
                  page.data.length < 2 ? (
                    <Text>Only version 1 exists: each save makes a new version to compare.</Text>
                  ) : (
                    <VersionDiff versions={page.data} />
                  )
                }
              </QueryState>
            </Tabs.Panel>
          </Tabs>
        </Stack>
      )}
    </QueryState>
  );
}
