import 'highlight.js/styles/github-dark.css';
import rehypeHighlight from 'rehype-highlight';

/**
 * rehype-highlight set up once for the page: react-markdown builds its processor on every render, and the plugin's
 * setup (a highlighter with its ~37 languages registered) cost 5–10 ms a fenced block, more than parsing it — 47
 * of the 125 ms drawing a 20-message conversation's replies took (decision 0052). Its transformer keeps nothing
 * from one tree to the next, so one serves every block. This module is a chunk of its own (decision 0056).
 */
const transformer = rehypeHighlight();
export const highlightCode = () => transformer;
