// Markdown to HTML for article bodies: markdown-it with raw HTML off, so <script> in an article
// arrives as text, and its default link check, which drops javascript:, vbscript:, file: and
// data: (except images) URLs.
import MarkdownIt from 'markdown-it';
import { Html } from './html.js';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

export const renderMarkdown = (text: string): Html => new Html(md.render(text));

/** Text placed inside markdown (titles, summaries in lists): core's rule, so every face escapes alike. */
export { markdownText } from '@switchyard/core';
