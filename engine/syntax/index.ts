/**
 * The syntax utilities the engine's areas share: parsing a block in its form (a script declaring
 * `entry`, or one function expression) with acorn, the tree walker the generators, localisation and
 * oracle read the parse through, and token-level repair of a block that does not parse. This is the area's face: other areas import from here.
 */
export { BlockParseError, blockForm, earlyErrorsOf, parseBlock, parsesAs } from './block-parser.ts';
export type { BlockForm, EarlyError } from './block-parser.ts';
export { SyntaxTree, isFunctionNode } from './syntax-tree.ts';
export type { SyntaxNode } from './syntax-tree.ts';
export { repairParse } from './parse-repair.ts';
