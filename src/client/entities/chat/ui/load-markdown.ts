/**
 * The markdown renderer's chunk (react-markdown, highlighting): loaded once a reply is on screen, or ahead of
 * that when a page knows it is about to show one.
 */
export const loadMarkdown = () => import('./markdown');
