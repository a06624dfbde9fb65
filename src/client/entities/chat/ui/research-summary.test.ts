import { describe, expect, it } from 'vitest';
import type { ReplyStep, Source } from '@shared/contracts/chat';
import { researchSummary } from './research-steps';

const web = (n: number): Source => ({ n, kind: 'web', title: `Page ${n}`, url: `https://e.org/${n}`, snippet: '' });
const step = (kind: ReplyStep['kind'], status: ReplyStep['status']): ReplyStep => ({ kind, status });

describe('the research summary', () => {
  it('counts the web pages the reply cites, else the pages it read', () => {
    expect(researchSummary([step('search', 'done')], [web(1), web(2)])).toBe('Researched 2 sources');
    expect(researchSummary([step('search', 'done'), step('open', 'done')], [])).toBe('Researched 1 source');
  });

  it('says so when research found nothing, and counts failed steps', () => {
    expect(researchSummary([step('search', 'done')], [])).toBe('Researched the web: no source found');
    expect(researchSummary([step('search', 'done'), step('open', 'failed')], [web(1)])).toBe(
      'Researched 1 source · 1 step failed',
    );
  });
});
