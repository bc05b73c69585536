import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Table,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useApi } from '../../api/use-api';
import { useAuth } from '../../auth/auth-context';
import { EmptyState, QueryState } from '../../components/states';
import type { ResourcePage, ResourceRow } from './resource-pages';

/** A resource's list, its create form and row action for editors, with empty and error states. */
export function ResourceListPage({ page }: { page: ResourcePage }) {
  const api = useApi();
  const { canEdit } = useAuth();
  const queries = useQueryClient();
  const list = useQuery({
    queryKey: [page.api],
    queryFn: () => api.call('GET', page.api, undefined, page.rowsOf ? undefined : { limit: 100 }),
  });
  const act = useMutation({
    mutationFn: (path: string) => api.call('POST', path, {}),
    onSuccess: () => queries.invalidateQueries({ queryKey: [page.api] }),
  });
  return (
    <Stack>
      <Title order={2}>{page.title}</Title>
      {canEdit ? page.forms?.map((form) => <CreateForm key={form.label} page={page} form={form} />) : null}
      {act.error ? (
        <Alert color="red" role="alert">
          {act.error.message}
        </Alert>
      ) : null}
      {act.isSuccess ? (
        <Alert color="green" role="status">
          Started.
        </Alert>
      ) : null}
      <QueryState query={list}>
        {(reply) => {
          const rows = page.rowsOf ? page.rowsOf(reply) : ((reply as { data?: ResourceRow[] }).data ?? []);
          if (rows.length === 0)
            return <EmptyState title={`No ${page.title.toLowerCase()}`}>{page.empty}</EmptyState>;
          return (
            <Table.ScrollContainer minWidth={560}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    {page.columns.map((c) => (
                      <Table.Th key={c.header}>{c.header}</Table.Th>
                    ))}
                    {canEdit && page.action ? <Table.Th>Action</Table.Th> : null}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row, i) => (
                    <Table.Tr key={row.id ?? row.workerId ?? i}>
                      {page.columns.map((c, column) => (
                        <Table.Td key={c.header}>
                          {column === 0 && page.link ? (
                            <Anchor component={Link} to={page.link(row)}>
                              {String(c.value(row) ?? '')}
                            </Anchor>
                          ) : (
                            String(c.value(row) ?? '')
                          )}
                        </Table.Td>
                      ))}
                      {canEdit && page.action ? (
                        <Table.Td>
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => act.mutate(page.action!.path(row))}
                          >
                            {page.action.label}
                          </Button>
                        </Table.Td>
                      ) : null}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          );
        }}
      </QueryState>
    </Stack>
  );
}

type Form = NonNullable<ResourcePage['forms']>[number];

function CreateForm({ page, form }: { page: ResourcePage; form: Form }) {
  const api = useApi();
  const queries = useQueryClient();
  const [values, setValues] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: () => api.call('POST', form.path ? form.path(values) : page.api, form.body(values)),
    onSuccess: async () => {
      setValues({});
      await queries.invalidateQueries({ queryKey: [page.api] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Paper withBorder p="sm" component="form" onSubmit={submit} aria-label={form.label}>
      <Group align="end">
        {form.fields.map((field) => {
          const Input = field.secret ? PasswordInput : TextInput;
          return (
            <Input
              key={field.name}
              label={field.label}
              value={values[field.name] ?? ''}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setValues((v) => ({ ...v, [field.name]: value }));
              }}
            />
          );
        })}
        <Button type="submit" loading={create.isPending}>
          {form.label}
        </Button>
      </Group>
      {create.error ? (
        <Alert mt="sm" color="red" role="alert">
          {create.error.message}
        </Alert>
      ) : null}
    </Paper>
  );
}
