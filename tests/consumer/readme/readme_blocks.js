// The fenced code blocks of a Markdown text (CommonMark fences: ``` or ~~~, at any indentation,
// as inside list items), in document order, each with its info string and the line it starts on.
// The README's checked blocks are chosen by their info string (readme.test.js).

/** [{ info, line, code }]: `info` trimmed, `line` 1-based (the opening fence), `code` unindented. */
export function fencedBlocks(markdown) {
  const lines = markdown.split(/\r?\n/);
  const blocks = [];
  for (let i = 0; i < lines.length; ++i) {
    const open = /^( *)(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    if (fence[0] === '`' && info.includes('`')) continue; // not a fence (CommonMark)
    const close = new RegExp(`^ *${fence[0] === '`' ? '`' : '~'}{${fence.length},} *$`);
    const body = [];
    let j = i + 1;
    for (; j < lines.length && !close.test(lines[j]); ++j) {
      // Content lines lose up to the opening fence's indentation.
      body.push(lines[j].replace(new RegExp(`^ {0,${indent.length}}`), ''));
    }
    blocks.push({ info: info.trim(), line: i + 1, code: `${body.join('\n')}\n` });
    i = j; // an unclosed fence runs to the end of the text
  }
  return blocks;
}
