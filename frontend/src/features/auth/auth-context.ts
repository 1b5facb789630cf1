import { createContext } from 'react';
import type { SessionStore } from './session-store';

export const AuthContext = createContext<SessionStore | null>(null);
