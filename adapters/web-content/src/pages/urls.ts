// The URL layout of the content pages, in one place: pages, their markdown twins and downloads.
export const pageUrls = (base: string) => ({
  home: `${base}/`,
  tags: `${base}/tags`,
  article: (slug: string) => `${base}/articles/${slug}`,
  articleMd: (slug: string) => `${base}/articles/${slug}.md`,
  tag: (tag: string) => `${base}/tags/${tag}`,
  tagMd: (tag: string) => `${base}/tags/${tag}.md`,
  tagZip: (tag: string) => `${base}/tags/${tag}.zip`,
  tagJson: (tag: string) => `${base}/tags/${tag}.json`,
  tagAll: (tag: string) => `${base}/tags/${tag}/all.md`,
  site: `${base}/site.zip`,
  system: (system: string) => `${base}/systems/${system}`,
  systemMd: (system: string) => `${base}/systems/${system}.md`,
  llms: `${base}/llms.txt`,
});

export type PageUrls = ReturnType<typeof pageUrls>;
