// The article store on disk: one <slug>.md per article in the configured content folder.
// Files are the source of truth, so authors edit them with any editor and git; a publish writes a
// temp file and renames it into place, so readers never see half an article. The index is rebuilt
// when the folder's mtime moves (a rename or an edit by hand), so every process that shares the
// folder sees a publish without a restart.
import { constants } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, stat, writeFile, unlink, link } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SwitchyardError, TagIndex, articleSource, parseArticle, type Article, type ArticleStore } from '@switchyard/core';

export interface FolderLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
}

export class FolderArticleStore implements ArticleStore {
  private cached?: { mtimeMs: number; index: TagIndex };
  private loading?: Promise<TagIndex>;

  constructor(
    readonly folder: string,
    private readonly logger: FolderLogger,
  ) {}

  async index(): Promise<TagIndex> {
    const mtimeMs = await stat(this.folder).then((s) => s.mtimeMs, () => -1);
    if (this.cached && this.cached.mtimeMs === mtimeMs) return this.cached.index;
    // One load at a time; concurrent readers share it.
    this.loading ??= this.load(mtimeMs).finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async load(mtimeMs: number): Promise<TagIndex> {
    const names = mtimeMs < 0 ? [] : (await readdir(this.folder)).filter((n) => n.endsWith('.md') && !n.startsWith('.')).sort();
    const articles: Article[] = [];
    for (const name of names) {
      try {
        const article = parseArticle(await readFile(join(this.folder, name), 'utf8'));
        // The file name is the slug's home; a mismatch would give one article two addresses.
        if (`${article.slug}.md` !== name) throw new SwitchyardError('invalid_article', `slug ${article.slug} does not match the file name ${name}`);
        articles.push(article);
      } catch (err) {
        // A bad file by hand must not take the other pages down: skip it and say so.
        this.logger.warn('article skipped', { file: join(this.folder, name), error: (err as Error).message });
      }
    }
    const index = new TagIndex(articles);
    this.cached = { mtimeMs, index };
    return index;
  }

  async publish(article: Article, options: { replace: boolean }): Promise<{ replaced: boolean }> {
    await mkdir(this.folder, { recursive: true });
    const target = join(this.folder, `${article.slug}.md`);
    const temp = join(this.folder, `.${article.slug}.${randomBytes(6).toString('hex')}.tmp`);
    await writeFile(temp, articleSource(article), { flag: 'wx' });
    try {
      if (options.replace) {
        const replaced = await stat(target).then(() => true, () => false);
        await rename(temp, target);
        return { replaced };
      }
      // link() fails if the target exists: "create only if new" decided by the filesystem, not by
      // a check-then-write that two publishers could both pass.
      try {
        await link(temp, target).catch(async (err: NodeJS.ErrnoException) => {
          // Filesystems without hard links (some network and container volumes): an exclusive
          // copy still refuses a taken slug, at the cost of a short window where the file grows.
          if (err.code === 'EPERM' || err.code === 'ENOTSUP' || err.code === 'ENOSYS') return copyFile(temp, target, constants.COPYFILE_EXCL);
          throw err;
        });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new SwitchyardError('article_exists', `an article with slug ${article.slug} exists; send "replace": true to replace it`, { slug: article.slug });
        throw err;
      }
      return { replaced: false };
    } finally {
      await unlink(temp).catch(() => {});
      // Coarse folder mtimes (1 s on some filesystems) must not hide our own publish from us.
      this.cached = undefined;
    }
  }
}
