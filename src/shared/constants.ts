/** Limits both sides enforce: the contracts validate with them and the forms show them (spec §9 where it names one). */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
export const PASSWORD_MIN = 8;
/** argon2 hashes anything, but unbounded input is a denial-of-service lever. */
export const PASSWORD_MAX = 200;
export const EMAIL_MAX = 254;
export const FULL_NAME_MAX = 100;
export const PROFILE_IMAGE_URL_MAX = 2048;

export const CONTEXT_WINDOW_MIN = 1;
export const CONTEXT_WINDOW_MAX = 20;
export const CONTEXT_WINDOW_DEFAULT = 10;

/** Bot field limits: the spec names none, so these are generous bounds that stop abuse. */
export const BOT_NAME_MAX = 60;
export const BOT_DESCRIPTION_MAX = 500;
export const BOT_GREETING_MAX = 500;
export const BOT_PROMPT_MAX = 8000;
export const TRUSTED_SOURCES_MAX = 1000;
export const EXAMPLE_QUERY_MAX = 500;
export const GENERATED_QUERIES_MAX = 10;
/** A bot's test set: enough to cover its ground, few enough to answer during training. */
export const EXAMPLE_QUERIES_MAX = 20;
export const EXPECTATION_NOTE_MAX = 1000;
export const FEEDBACK_COMMENT_MAX = 1000;
/** A bot's test set in its own table (decision 0041): room for real coverage, bounded so a run stays affordable. */
export const TEST_CASES_MAX = 200;
/** A test asks what a chat could ask, so a question from a rated reply always fits. */
export const TEST_QUERY_MAX = 8000;
export const TEST_EXPECTED_MAX = 4000;
export const TEST_TAGS_MAX = 10;
export const TEST_TAG_MAX = 40;
/** The largest test set CSV accepted. */
export const TEST_CSV_MAX_BYTES = 1_000_000;
export const ACTIVITIES_LIMIT_DEFAULT = 10;
export const ACTIVITIES_LIMIT_MAX = 50;

/** Chat limits: the spec names none; a message fits a long question with pasted text, a title fits a list row. */
export const CHAT_MESSAGE_MAX = 8000;
export const CONVERSATION_TITLE_MAX = 120;

/** The longest page a list answers. */
export const LIST_LIMIT_MAX = 200;
