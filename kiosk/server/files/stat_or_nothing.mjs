import { statSync } from 'node:fs';

// statSync that answers undefined for every way a path can fail to name a file (ENOENT, ENOTDIR,
// ENAMETOOLONG, ELOOP, EACCES, ...): never throws.
export function statOrNothing(file) {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
