// Where the project's own files are, from this module's location (works from src and from dist).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const CONFIG_DIR = resolve(PROJECT_ROOT, 'config');
