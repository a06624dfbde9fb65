import { describe, expect, it } from 'vitest';
import type { Capability } from '@shared/bots/capabilities';
import { sortAttachable } from './attachable';

const png = new File(['x'], 'photo.png', { type: 'image/png' });
const pdf = new File(['x'], 'Manual.PDF', { type: 'application/pdf' });
const exe = new File(['x'], 'setup.exe', { type: 'application/octet-stream' });

describe('sortAttachable', () => {
  it('takes the files the bot can read, by type or extension', () => {
    const bot = { name: 'Helper', capabilities: ['image_understanding', 'document_analysis'] satisfies Capability[] };
    expect(sortAttachable([png, pdf], bot)).toEqual({
      accepted: [png, pdf],
      reasons: [],
    });
  });

  it('says which capability is missing, once per kind, and which files no bot can read', () => {
    const { accepted, reasons } = sortAttachable([png, png, pdf, exe], {
      name: 'Helper',
      capabilities: ['document_analysis'],
    });
    expect(accepted).toEqual([pdf]);
    expect(reasons).toEqual([
      "Helper can't look at images: turn on Image understanding in its settings.",
      "setup.exe: this type of file can't be attached.",
    ]);
  });
});
