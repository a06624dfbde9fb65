import { describe, expect, it } from 'vitest';
import { chunksOf, type Manifest } from '../../scripts/check-bundle';

/** A Vite manifest as `vite build` writes it: keys are sources (entries, lazy pages) or `_shared-chunk.js`. */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index-1.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_runtime-1.js'],
    dynamicImports: ['features/auth/components/login-page.tsx', 'features/home/components/home-page.tsx'],
    css: ['assets/index-1.css'],
  },
  '_runtime-1.js': { file: 'assets/runtime-1.js' },
  'features/auth/components/login-page.tsx': {
    file: 'assets/login-page-1.js',
    src: 'features/auth/components/login-page.tsx',
    imports: ['_form-1.js', 'index.html'],
    dynamicImports: ['_zod-1.js'],
  },
  '_form-1.js': { file: 'assets/form-1.js', imports: ['_runtime-1.js', '_styles-1.css'] },
  '_styles-1.css': { file: 'assets/styles-1.css' },
  '_zod-1.js': { file: 'assets/zod-1.js' },
  'features/home/components/home-page.tsx': { file: 'assets/home-page-1.js', imports: ['_markdown-1.js'] },
  '_markdown-1.js': { file: 'assets/markdown-1.js' },
};

describe('chunksOf (bundle budget)', () => {
  it('counts the entry and its static imports, nothing it loads lazily', () => {
    expect(chunksOf(manifest, []).sort()).toEqual(['_runtime-1.js', 'index.html']);
  });

  it("adds a lazy first page's chunk with its static imports, each once, without its own lazy imports", () => {
    expect(chunksOf(manifest, ['features/auth/components/login-page.tsx']).sort()).toEqual([
      '_form-1.js',
      '_runtime-1.js',
      'features/auth/components/login-page.tsx',
      'index.html',
    ]);
  });

  it('leaves out style sheets', () => {
    const files = chunksOf(manifest, ['features/auth/components/login-page.tsx']).map((key) => manifest[key]!.file);
    expect(files.every((file) => file.endsWith('.js'))).toBe(true);
  });

  it('a page bundled into the entry adds nothing', () => {
    expect(chunksOf(manifest, ['features/landing/components/landing-page.tsx'])).toEqual(chunksOf(manifest, []));
  });
});
