import { Alert, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <Center p="xl" role="status" aria-live="polite">
      <Loader size="sm" aria-label={label} />
    </Center>
  );
}

export function ErrorState({ error }: { error: unknown }) {
  return (
    <Alert color="red" title="Something went wrong" role="alert">
      {error instanceof Error ? error.message : String(error)}
    </Alert>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack align="center" gap="xs" p="xl">
      <Text fw={600}>{title}</Text>
      {children ? <Text c="dimmed">{children}</Text> : null}
    </Stack>
  );
}

/** Loading, error or the content, as a query says. */
export function QueryState<T>({
  query,
  children,
}: {
  query: { isPending: boolean; error: unknown; data: T | undefined };
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.error) return <ErrorState error={query.error} />;
  return <>{children(query.data as T)}</>;
}
