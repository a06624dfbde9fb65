/** Numbers fixed by the product specification (§9) and shared by client and server. */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
export const PASSWORD_MIN = 8;
/** argon2 hashes anything, but unbounded input is a denial-of-service lever. */
export const PASSWORD_MAX = 200;
export const EMAIL_MAX = 254;
export const FULL_NAME_MAX = 100;
export const PROFILE_IMAGE_URL_MAX = 2048;

export const USAGE_CREDITS = 750;
export const DASHBOARD_ACTIVITIES_LIMIT = 3;
export const MAX_PINNED_BOTS = 5;
export const CONTEXT_WINDOW_MIN = 1;
export const CONTEXT_WINDOW_MAX = 20;
export const CONTEXT_WINDOW_DEFAULT = 10;
export const MIN_TRAINING_EXAMPLES = 2;
export const ADVISED_TRAINING_EXAMPLES = 5;
export const TRAINING_STEP = 5;
export const TRAINING_INTERVAL_MS = 300;
export const TRAINING_CAP = 95;
export const CUSTOM_PROMPT_SHORT = 100;
export const CUSTOM_PROMPT_LONG = 800;

export const DELAY_PROMPT_SAVE_MS = 500;
export const DELAY_NEXT_STEP_MS = 300;
export const DELAY_AFTER_CREATE_MS = 300;
export const DELAY_LOGO_ANIMATION_MS = 300;
export const DELAY_LOGIN_REDIRECT_MS = 100;

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_SWIPE_THRESHOLD = 50;
export const TOOLTIP_DELAY_MS = 700;

export const DRAG_MOUSE_DISTANCE_PX = 5;
export const DRAG_TOUCH_DELAY_MS = 120;
export const PARTICLE_COUNT = 70;
export const PARTICLE_LINK_DISTANCE_PX = 120;
export const CHAT_PANEL_HEIGHT_PX = 700;

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
} as const;

/** Paths on which the navigation bar is hidden (spec §2). */
export const AUTH_PATH_PREFIXES = ['/login', '/register', '/forgot-password', '/reset-password', '/verify-email'];

/** Bot field limits: the spec names none, so these are generous bounds that stop abuse. */
export const BOT_NAME_MAX = 60;
export const BOT_DESCRIPTION_MAX = 500;
export const BOT_GREETING_MAX = 500;
export const BOT_PROMPT_MAX = 8000;
export const TRUSTED_SOURCES_MAX = 1000;
export const EXAMPLE_QUERY_MAX = 500;
export const GENERATED_QUERIES_MAX = 10;
export const ACTIVITIES_LIMIT_DEFAULT = 10;
export const ACTIVITIES_LIMIT_MAX = 50;

/** Chat limits: the spec names none; a message fits a long question with pasted text, a title fits a list row. */
export const CHAT_MESSAGE_MAX = 8000;
export const CONVERSATION_TITLE_MAX = 120;
