import { describe, expect, it } from 'vitest';
import { fileKindOf, isKnowledgeType, KNOWLEDGE_ACCEPT, passagesLabel } from './knowledge-types';

describe('knowledge types', () => {
  it('accepts the documents the server reads, by extension in any case', () => {
    for (const name of [
      'a.pdf',
      'b.DOCX',
      'c.txt',
      'd.md',
      'e.csv',
      'f.html',
      'g.htm',
      'h.json',
      'i.markdown',
      'j.xhtml',
    ]) {
      expect(isKnowledgeType(name), name).toBe(true);
    }
    for (const name of ['photo.png', 'slides.pptx', 'README', '.pdf', 'archive.pdf.zip']) {
      expect(isKnowledgeType(name), name).toBe(false);
    }
  });

  it('gives the picker extensions and media types', () => {
    expect(KNOWLEDGE_ACCEPT.split(',')).toEqual(expect.arrayContaining(['.pdf', '.docx', '.md', 'application/pdf']));
  });

  it('picks an icon kind from the name', () => {
    expect(fileKindOf('Report.PDF')).toBe('pdf');
    expect(fileKindOf('notes.docx')).toBe('document');
    expect(fileKindOf('rows.csv')).toBe('sheet');
    expect(fileKindOf('data.json')).toBe('code');
    expect(fileKindOf('notes.md')).toBe('text');
  });

  it('counts passages in words', () => {
    expect(passagesLabel(1)).toBe('1 passage');
    expect(passagesLabel(0)).toBe('0 passages');
    expect(passagesLabel(42)).toBe('42 passages');
  });
});
