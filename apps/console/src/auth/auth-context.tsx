import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

/** Who is signed in, kept in the browser's storage so a reload stays signed in. */
export interface Credentials {
  token?: string;
  apiKey?: string;
  username: string;
  /** `admin`, `member`, `viewer`; `api-key` when signed in with a key (the API decides what it may do). */
  role: string;
  namespace?: string;
}

interface AuthState {
  credentials: Credentials | null;
  canEdit: boolean;
  headers: Record<string, string>;
  signIn: (credentials: Credentials) => void;
  signOut: () => void;
  setNamespace: (namespace: string | undefined) => void;
}

const STORAGE_KEY = 'agentry.console.credentials';
const AuthContext = createContext<AuthState | null>(null);

function stored(): Credentials | null {
  try {
    return JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Credentials | null;
  } catch {
    return null;
  }
}

function headersOf(credentials: Credentials | null): Record<string, string> {
  if (!credentials) return {};
  return {
    ...(credentials.token ? { authorization: `Bearer ${credentials.token}` } : {}),
    ...(credentials.apiKey ? { 'x-api-key': credentials.apiKey } : {}),
    ...(credentials.namespace ? { 'x-agentry-namespace': credentials.namespace } : {}),
  };
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [credentials, setCredentials] = useState<Credentials | null>(stored);
  const save = useCallback((next: Credentials | null) => {
    if (next) localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    else localStorage.removeItem(STORAGE_KEY);
    setCredentials(next);
  }, []);
  const value = useMemo<AuthState>(
    () => ({
      credentials,
      canEdit: credentials !== null && credentials.role !== 'viewer',
      headers: headersOf(credentials),
      signIn: save,
      signOut: () => save(null),
      setNamespace: (namespace) => credentials && save({ ...credentials, namespace }),
    }),
    [credentials, save],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth outside AuthProvider');
  return state;
}
