import { AppShell, Badge, Burger, Button, Group, NavLink, Select, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useApi } from '../api/use-api';
import { useAuth } from '../auth/auth-context';

const NAV = [
  ['/agents', 'Agents'],
  ['/sessions', 'Sessions'],
  ['/environments', 'Environments'],
  ['/vaults', 'Vaults'],
  ['/memory-stores', 'Memory stores'],
  ['/skills', 'Skills'],
  ['/files', 'Files'],
  ['/deployments', 'Deployments'],
  ['/deployment-runs', 'Deployment runs'],
  ['/hands', 'Hands'],
  ['/usage', 'Usage'],
] as const;

export function Shell({ children }: { children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  const { pathname } = useLocation();
  const { credentials, signOut } = useAuth();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
            />
            <Title order={1} size="h4">
              Agentry
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <NamespaceSelect />
            <Text size="sm" visibleFrom="xs">
              {credentials?.username}
            </Text>
            <Badge variant="light" color={credentials?.role === 'viewer' ? 'gray' : 'indigo'}>
              {credentials?.role}
            </Badge>
            <Button variant="default" size="xs" onClick={signOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        {NAV.map(([to, label]) => (
          <NavLink
            key={to}
            component={Link}
            to={to}
            label={label}
            active={pathname.startsWith(to)}
            variant="filled"
            onClick={close}
            aria-current={pathname.startsWith(to) ? 'page' : undefined}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}

function NamespaceSelect() {
  const api = useApi();
  const { credentials, setNamespace } = useAuth();
  const namespaces = useQuery({
    queryKey: ['namespaces', credentials?.username],
    queryFn: () =>
      api.call<{ id: string; name: string }[] | { data: { id: string; name: string }[] }>(
        'GET',
        '/api/namespaces',
      ),
  });
  const list = Array.isArray(namespaces.data) ? namespaces.data : (namespaces.data?.data ?? []);
  if (list.length < 2) return null;
  return (
    <Select
      aria-label="Namespace"
      size="xs"
      w={160}
      data={list.map((n) => ({ value: n.id, label: n.name }))}
      value={credentials?.namespace ?? null}
      placeholder="Default namespace"
      onChange={(value) => setNamespace(value ?? undefined)}
      clearable
    />
  );
}
