/**
 * The markdown renderer's chunk (react-markdown; its code highlighter is a chunk of its own, decision 0056): loaded
 * once a reply is on screen, or ahead of that when a page knows it is about to show one.
 */
export const loadMarkdown = () => import('./markdown');
