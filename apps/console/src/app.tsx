import { Navigate, Route, Routes } from 'react-router';
import { useAuth } from './auth/auth-context';
import { Shell } from './layout/shell';
import { LoginPage } from './pages/login-page';
import { AgentsPage } from './pages/agents/agents-page';
import { AgentPage } from './pages/agents/agent-page';
import { AgentEditorPage } from './pages/agents/agent-editor-page';
import { SessionsPage } from './pages/sessions/sessions-page';
import { SessionPage } from './pages/sessions/session-page';
import { RESOURCE_PAGES } from './pages/resources/resource-pages';
import { ResourceListPage } from './pages/resources/resource-list-page';
import { UsagePage } from './pages/resources/usage-page';
import { MemoryStorePage } from './pages/memory/memory-store-page';

export function App() {
  const { credentials } = useAuth();
  if (!credentials) return <LoginPage />;
  return (
    <Shell>
      <Routes>
        <Route path="/" element={<Navigate to="/agents" replace />} />
        <Route path="/agents" element={<AgentsPage />} />
        <Route path="/agents/new" element={<AgentEditorPage />} />
        <Route path="/agents/:id" element={<AgentPage />} />
        <Route path="/agents/:id/edit" element={<AgentEditorPage />} />
        <Route path="/sessions" element={<SessionsPage />} />
        <Route path="/sessions/:id" element={<SessionPage />} />
        <Route path="/usage" element={<UsagePage />} />
        <Route path="/memory-stores/:id" element={<MemoryStorePage />} />
        {RESOURCE_PAGES.map((page) => (
          <Route key={page.path} path={page.path} element={<ResourceListPage page={page} />} />
        ))}
        <Route path="*" element={<Navigate to="/agents" replace />} />
      </Routes>
    </Shell>
  );
}
