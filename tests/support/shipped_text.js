// How shipped text may name files: the rule the consumer suite applies to the installed package
// (tests/consumer/package.test.js) and the house test applies to the modules package.json ships
// (tests/house/package_files.test.js), kept once here.

/**
 * Path-like tokens of shipped text (a token starts after a space, quote, backtick, bracket or
 * parenthesis, never inside another path or a package specifier): the repository's folders and its
 * C++ sources, which the package does not ship, and the package's own folders, which it does.
 */
const REPOSITORY_PATH = /(?<![\w./@-])(?:tests|src|service|scripts|bench|wasm|kiosk|npm|build)\/[\w./*{},-]*|[\w./-]*\.(?:cpp|hpp)\b/g;
export const PACKAGE_PATH = /(?<![\w./@-])(?:docs|web|examples|fixtures)\/[\w./*{},-]*/g;
/** A line that says plainly that what it names is the repository's, not the package's. */
export const MARKED_AS_REPOSITORY = /in the repository|repository's/i;

/** The repository files `line` names as if its reader had them (none when the line says they are the repository's). */
export function repositoryFilesNamed(line) {
  if (MARKED_AS_REPOSITORY.test(line)) return [];
  return [...line.matchAll(REPOSITORY_PATH)].map(([token]) => token.replace(/[.,]+$/, ''));
}
