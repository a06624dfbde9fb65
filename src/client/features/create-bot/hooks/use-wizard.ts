import { useCallback, useEffect, useRef, useState } from 'react';
import { setCapability, setConversationMemory, setWebBrowsing, type Capability } from '@shared/bots/capabilities';
import {
  addExampleQuery,
  initialWizardState,
  moveStep,
  noteExpectation,
  parseWizardState,
  rateAnswer,
  type Customization,
  type PromptSource,
  type TestAnswer,
  type WizardDraft,
  type WizardState,
  type WizardStep,
} from '../model/wizard';

/** Session storage: the draft survives reloads in this tab, and is gone with it rather than lingering on a shared device. */
export const draftStorageKey = (userId: number) => `botDraft:${userId}`;

export function readStoredWizard(key: string): WizardState {
  try {
    return parseWizardState(sessionStorage.getItem(key));
  } catch {
    return initialWizardState();
  }
}

/** Throws when the browser refuses (storage full or disabled), so a caller that must know can say so. */
function storeWizard(key: string, state: WizardState): void {
  sessionStorage.setItem(key, JSON.stringify(state));
}

function forgetWizard(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // Storage is unavailable, so there is nothing to forget either.
  }
}

const withPrompt = (state: WizardState, systemPrompt: string): WizardState => ({
  ...state,
  draft: { ...state.draft, config: { ...state.draft.config, systemPrompt } },
});

/** Changes arriving from step 2's form while it is being filled in. */
export type CustomizationChange = Partial<Customization>;

/**
 * The wizard's state (spec §4): step, draft and example queries. With a storage key (creating), every change
 * is saved so a reload resumes where the user was; editing passes none, so it never touches the create draft.
 */
export function useWizard(initial: WizardState, storageKey: string | null) {
  const [state, setState] = useState(initial);
  const latest = useRef(state);
  /**
   * Set once the bot is created: changes still arrive afterwards (an uploaded file turns on Document analysis)
   * and must not store the finished draft again, or the next New Botty would open on its Finish step.
   */
  const discarded = useRef(false);

  useEffect(() => {
    latest.current = state;
    if (!storageKey || discarded.current) return;
    try {
      storeWizard(storageKey, state);
    } catch {
      // Best effort: the wizard keeps working, it just will not survive a reload.
    }
  }, [state, storageKey]);

  const changeStep = useCallback((to: (step: WizardStep) => WizardStep) => {
    setState((s) => ({ ...s, step: to(s.step) }));
    window.scrollTo({ top: 0 });
  }, []);

  const updateDraft = useCallback((change: (draft: WizardDraft) => WizardDraft) => {
    setState((s) => ({ ...s, draft: change(s.draft) }));
  }, []);

  const editDraft = useCallback(
    (fields: Partial<Pick<WizardDraft, 'name' | 'description' | 'purpose' | 'icon'>>) =>
      updateDraft((draft) => ({ ...draft, ...fields })),
    [updateDraft],
  );

  const toggleCapability = useCallback(
    (capability: Capability, enabled: boolean) => updateDraft((draft) => setCapability(draft, capability, enabled)),
    [updateDraft],
  );

  const customize = useCallback(
    ({ webBrowsing, conversationMemory, ...change }: CustomizationChange) =>
      updateDraft((draft) => {
        const next = { ...draft, config: { ...draft.config, ...change } };
        const browsing = webBrowsing === undefined ? next : setWebBrowsing(next, webBrowsing);
        return conversationMemory === undefined ? browsing : setConversationMemory(browsing, conversationMemory);
      }),
    [updateDraft],
  );

  const addExample = useCallback((text: string) => {
    setState((s) => ({ ...s, exampleQueries: addExampleQuery(s.exampleQueries, text) }));
  }, []);

  const removeExample = useCallback((index: number) => {
    setState((s) => ({ ...s, exampleQueries: s.exampleQueries.filter((_, i) => i !== index) }));
  }, []);

  const trained = useCallback(
    ({
      systemPrompt,
      exampleQueries,
      source,
    }: {
      systemPrompt: string;
      exampleQueries: string[];
      source: PromptSource;
    }) => {
      setState((s) => ({ ...withPrompt(s, systemPrompt), generatedQueries: exampleQueries, promptSource: source }));
    },
    [],
  );

  /** Training starts over: the previous answers go, the notes on them stay (they belong to the queries). */
  const clearAnswers = useCallback(() => setState((s) => ({ ...s, answers: [] })), []);

  const answerArrived = useCallback((answer: TestAnswer) => {
    setState((s) => ({ ...s, answers: [...s.answers, answer] }));
  }, []);

  const rate = useCallback((query: string, rating: 'good' | 'bad' | null) => {
    setState((s) => ({ ...s, testNotes: rateAnswer(s.testNotes, query, rating) }));
  }, []);

  const noteExpected = useCallback((query: string, expected: string) => {
    setState((s) => ({ ...s, testNotes: noteExpectation(s.testNotes, query, expected) }));
  }, []);

  /** Unlike other changes, a saved prompt must be stored, or the prompt dialog reports the failure. */
  const savePrompt = useCallback(
    (systemPrompt: string) => {
      const next = withPrompt(latest.current, systemPrompt);
      if (storageKey && !discarded.current) storeWizard(storageKey, next);
      setState(next);
    },
    [storageKey],
  );

  const reset = useCallback(() => {
    setState(initialWizardState());
    window.scrollTo({ top: 0 });
  }, []);

  /** After creation the page is left a moment later; resetting the state instead would flash step 1 meanwhile. */
  const discard = useCallback(() => {
    discarded.current = true;
    if (storageKey) forgetWizard(storageKey);
  }, [storageKey]);

  return {
    state,
    goTo: (step: WizardStep) => changeStep(() => step),
    next: () => changeStep((step) => moveStep(step, 1)),
    back: () => changeStep((step) => moveStep(step, -1)),
    editDraft,
    toggleCapability,
    customize,
    addExample,
    removeExample,
    trained,
    clearAnswers,
    answerArrived,
    rate,
    noteExpected,
    savePrompt,
    reset,
    discard,
  };
}

export type Wizard = ReturnType<typeof useWizard>;
