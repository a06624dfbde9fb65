import type { User } from '@shared/contracts/auth';

/** Client storage keys (spec §3). */
export const STORAGE_KEYS = {
  authToken: 'authToken',
  user: 'user',
  redirectAfterLogin: 'redirectAfterLogin',
  pinnedBots: 'pinnedBots',
  /** 'light' or 'dark' once chosen in Settings; absent means follow the system. */
  theme: 'theme',
  /** The bot whose chat was opened last; the chat route falls back to it (spec §2). */
  activeBotId: 'activeBotId',
  /** Set while pins or theme chosen here are not saved with the account yet (lib/preferences.ts). */
  preferencesUnsaved: 'preferencesUnsaved',
} as const;

/** Storage can throw (Safari private mode, disabled cookies); the app then behaves as signed out. */
function read(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

function write(storage: Storage, key: string, value: string): void {
  try {
    storage.setItem(key, value);
  } catch {
    // Nothing sensible to do: the session simply will not survive a reload.
  }
}

function remove(storage: Storage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // See write().
  }
}

export function getAuthToken(): string | null {
  return read(localStorage, STORAGE_KEYS.authToken) ?? read(sessionStorage, STORAGE_KEYS.authToken);
}

/** The storage that holds the current session: local when "Remember me" was ticked, else session. */
function sessionStore(): Storage | null {
  if (read(localStorage, STORAGE_KEYS.authToken)) return localStorage;
  if (read(sessionStorage, STORAGE_KEYS.authToken)) return sessionStorage;
  return null;
}

export function saveSession(token: string, user: User, remember: boolean): void {
  clearSession();
  const storage = remember ? localStorage : sessionStorage;
  write(storage, STORAGE_KEYS.authToken, token);
  write(storage, STORAGE_KEYS.user, JSON.stringify(user));
}

export function saveStoredUser(user: User): void {
  const storage = sessionStore();
  if (storage) write(storage, STORAGE_KEYS.user, JSON.stringify(user));
}

export function clearSession(): void {
  for (const storage of [localStorage, sessionStorage]) {
    remove(storage, STORAGE_KEYS.authToken);
    remove(storage, STORAGE_KEYS.user);
  }
}

export function setRedirectAfterLogin(path: string): void {
  write(sessionStorage, STORAGE_KEYS.redirectAfterLogin, path);
}

/** Returns and forgets the stored target; only same-origin paths are honoured, so it cannot be an open redirect. */
export function takeRedirectAfterLogin(): string | null {
  const path = read(sessionStorage, STORAGE_KEYS.redirectAfterLogin);
  remove(sessionStorage, STORAGE_KEYS.redirectAfterLogin);
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null;
  return path;
}

export function readLocal(key: string): string | null {
  return read(localStorage, key);
}

export function writeLocal(key: string, value: string): void {
  write(localStorage, key, value);
}

export function removeLocal(key: string): void {
  remove(localStorage, key);
}
