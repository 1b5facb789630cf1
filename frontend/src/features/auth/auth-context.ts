import { createContext } from 'react';
import type { SessionStore } from '@fitting-room/shared/browser';

export const AuthContext = createContext<SessionStore | null>(null);
