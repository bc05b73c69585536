import {
  Alert,
  Button,
  Grid,
  Group,
  NavLink,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { useApi } from '../../api/use-api';
import { useAuth } from '../../auth/auth-context';
import { EmptyState, QueryState } from '../../components/states';
import { MemoryVersions } from './memory-versions';

interface Memory {
  id: string;
  path: string;
  content_size_bytes: number;
  content?: string | null;
  updated_at: string;
}

/** One memory store: its memories by path, the selected one's content and versions, and a new memory. */
export function MemoryStorePage() {
  const { id } = useParams();
  const api = useApi();
  const { canEdit } = useAuth();
  const [selected, setSelected] = useState<string | null>(null);
  const store = useQuery({
    queryKey: ['memory-store', id],
    queryFn: () => api.call<{ name: string; description: string }>('GET', `/v1/memory_stores/${id}`),
  });
  const memories = useQuery({
    queryKey: ['memory-store', id, 'memories'],
    queryFn: () =>
      api.call<{ data: Memory[] }>('GET', `/v1/memory_stores/${id}/memories`, undefined, { limit: 100 }),
  });
  return (
    <QueryState query={store}>
      {(data) => (
        <Stack>
          <Title order={2}>{data.name}</Title>
          {data.description ? <Text c="dimmed">{data.description}</Text> : null}
          {canEdit ? <NewMemoryForm storeId={id!} /> : null}
          <QueryState query={memories}>
            {({ data: rows }) =>
              rows.length === 0 ? (
                <EmptyState title="No memories">Agents write them as they work, or add one above.</EmptyState>
              ) : (
                <Grid>
                  <Grid.Col span={{ base: 12, md: 4 }}>
                    <nav aria-label="Memories">
                      {rows.map((memory) => (
                        <NavLink
                          key={memory.id}
                          component="button"
                          label={memory.path}
                          description={`${memory.content_size_bytes} bytes`}
                          active={memory.id === selected}
                          variant="filled"
                          aria-current={memory.id === selected ? 'true' : undefined}
                          onClick={() => setSelected(memory.id)}
                        />
                      ))}
                    </nav>
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, md: 8 }}>
                    {selected ? (
                      <MemoryVersions storeId={id!} memoryId={selected} />
                    ) : (
                      <Text c="dimmed">Pick a memory to read it and its versions.</Text>
                    )}
                  </Grid.Col>
                </Grid>
              )
            }
          </QueryState>
        </Stack>
      )}
    </QueryState>
  );
}

function NewMemoryForm({ storeId }: { storeId: string }) {
  const api = useApi();
  const queries = useQueryClient();
  const [path, setPath] = useState('');
  const [content, setContent] = useState('');
  const create = useMutation({
    mutationFn: () => api.call('POST', `/v1/memory_stores/${storeId}/memories`, { path, content }),
    onSuccess: async () => {
      setPath('');
      setContent('');
      await queries.invalidateQueries({ queryKey: ['memory-store', storeId] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label="New memory">
      <Stack gap="xs">
        <TextInput
          label="Path"
          placeholder="/notes/topic.md"
          required
          value={path}
          onChange={(e) => setPath(e.currentTarget.value)}
        />
        <Textarea
          label="Content"
          autosize
          minRows={2}
          value={content}
          onChange={(e) => setContent(e.currentTarget.value)}
        />
        {create.error ? (
          <Alert color="red" role="alert">
            {create.error.message}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={create.isPending}>
            Add memory
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
