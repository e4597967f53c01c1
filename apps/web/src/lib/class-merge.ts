/**
 * Merges a Tailwind v4 class list the way tailwind-merge does, for the utilities this app writes,
 * at a fraction of its size. A class is variants (`hover:`, `md:`, `data-[x]:`), an
 * important mark (`!`), a sign and a utility, whose group comes from its root and value in the
 * table below. Reading the list from the end, a class is dropped when a later class under the same
 * variants and mark already set its group or a group that covers it (`p-2` covers `px-*`, `size-*`
 * covers `w-*`). Classes the table does not know are kept. class-merge.test.ts checks the result
 * against tailwind-merge for every class token in the app's source.
 */

/** `a{b,c}d` is `abd acd`; several braces multiply. */
const expand = (word: string): string[] => {
  const m = /\{([^}]*)\}/.exec(word);
  return m ? m[1]!.split(',').flatMap((v) => expand(word.replace(m[0], v))) : [word];
};

/**
 * The utilities this app writes and their near relatives. A line is roots (commas; braces expand)
 * then the groups their value is tried against, in order, as `group=values`: values are
 * `|`-separated words (the empty word is the bare root: `border`) or kinds from KINDS. `&` in a
 * group is the root. A class whose root is not here is kept as it is, and `*` takes any value, so
 * an unlisted utility of such a root counts as its colour (`bg-cover` as a `bg-*`): class-merge.test.ts
 * reports either as soon as the app writes one where it would merge differently; add its line then.
 */
const UTILITIES = `block,inline,inline-{block,flex,grid,table},contents,list-item,hidden,flow-root,table-{row,cell,caption,column,row-group,header-group,footer-group} display=
flex display= flex-dir=row|row-reverse|col|col-reverse flex-wrap=wrap|wrap-reverse|nowrap flex=N|initial
grid,table display=
static,fixed,absolute,relative,sticky position=
isolate,isolation-auto isolation=
sr-only,not-sr-only sr=
italic,not-italic font-style=
uppercase,lowercase,capitalize,normal-case text-transform=
underline,overline,line-through,no-underline decoration=
truncate text-overflow=
normal-nums,proportional-nums,tabular-nums nums=
text text-align=left|center|right|justify|start|end text-overflow=ellipsis|clip text-wrap=wrap|nowrap|balance|pretty font-size=T text-color=*
font font-family=sans|serif|mono|F font-weight=*
border,border-{x,y,s,e,t,r,b,l} w&=|L border-style=S border-collapse=collapse|separate c&=*
outline outline-w=|L outline-style=S outline-color=*
ring ring-w=|L ring-color=*
shadow shadow=|none|T|V shadow-color=*
stroke stroke-w=L stroke=*
list list-position=inside|outside list-type=*
object object-fit=contain|cover|fill|none|scale-down object-position=*
break &=normal|words|all|keep
content align-content=normal|center|start|end|between|around|evenly|baseline|stretch
bg,from,via,to,fill,cursor,animate,ease,origin,aspect,transition,overflow{,-x,-y},items,justify{,-items,-self},self,whitespace,align,caption,pointer-events,select,appearance &=*
touch &=auto|none|manipulation
divide-{x,y},rounded{,-t,-r,-b,-l},blur,backdrop-blur,grow,shrink &=|N
{,scroll-}{p,m}{,x,y,s,e,t,r,b,l},{,min-,max-}{w,h},size,{gap,inset,translate}{,-x,-y},start,end,top,right,bottom,left,z,order,basis,opacity,space-{x,y},rotate,scale,grid-{cols,rows},{col,row}-{span,start,end},duration,delay,line-clamp,leading,tracking,{underline,outline}-offset,brightness,contrast &=N`;

/**
 * A later class of a group on the left also replaces earlier classes of the groups on the right;
 * `&` is the group on the left, `~` the same without its last letter.
 */
const COVERS = `{,scroll-}{p,m}>&{x,y,s,e,t,r,b,l}
{,scroll-}{p,m}x>~{r,l,s,e}
{,scroll-}{p,m}y>~{t,b}
{w,c}border>&-{x,y,s,e,t,r,b,l}
{w,c}border-x>~{r,l,s,e}
{w,c}border-y>~{t,b}
rounded>&-{t,r,b,l}
inset>&-x &-y start end top right bottom left
inset-x>start end left right
inset-y>top bottom
size>w h
{gap,overflow,translate}>&-x &-y
flex>basis grow shrink
font-size>leading
line-clamp>display overflow`;

const NUMBER = String.raw`\d*\.?\d+%?|\d+\/\d+`;
const SIZE = '[2-9]?xl|[23]?xs|sm|md|lg';
const LENGTH = String.raw`|^[[(]((length|size|number|percentage):|-?[\d.]|(calc|min|max|clamp)\()`;
/**
 * Kinds of value (arbitrary ones in `[...]` or `(...)`): N a number, fraction or size word, or
 * anything arbitrary; L a number or a length; T a size (xs to 9xl) or a length; S a line style;
 * F a `family-name:`; V a variable without a type; * anything.
 */
const KINDS: Record<string, RegExp> = {
  N: new RegExp(
    `^(${NUMBER}|${SIZE}|px|full|auto|screen|fit|min|max|none|[sdl]?v[hw]|first|last|prose|subgrid|tight(er)?|snug|normal|relaxed|loose|wide(r|st)?)$|^[[(]`,
  ),
  L: new RegExp(`^(${NUMBER})$${LENGTH}`),
  T: new RegExp(`^(${SIZE}|base)$${LENGTH}`),
  S: /^(solid|dashed|dotted|double|none|hidden)$/,
  F: /^[[(]family-name:/,
  V: /^\(--/,
  '*': /(?:)/,
};

/** Roots or groups: comma-separated, braces expanded. */
const list = (text: string) => text.split(/,(?![^{]*})/).flatMap(expand);
/** root → its groups, each as [group, ...values] */
const rules = new Map<string, string[][]>();
for (const [roots, ...groups] of UTILITIES.split('\n').map((line) => line.split(' ') as [string, ...string[]]))
  for (const root of list(roots))
    rules.set(root, [...(rules.get(root) ?? []), ...groups.map((g) => g.replace('&', root).split(/[=|]/))]);
const covers = new Map<string, string[]>();
for (const [groups, covered] of COVERS.split('\n').map((line) => line.split('>') as [string, string]))
  for (const group of list(groups))
    covers.set(
      group,
      covered.split(' ').flatMap((c) => expand(c.replace('&', group).replace('~', group.slice(0, -1)))),
    );

/** `split` at a separator outside brackets and parentheses. */
const outside = (separator: string) => new RegExp(`${separator}(?![^[(]*[\\])])`);
const VARIANT_END = outside(':');
const DASH = outside('-');
const SLASH = outside('/');

/** The group of a utility without variants, mark and sign (`px-4`, `bg-primary/10`), or undefined. */
function groupOf(utility: string): string | undefined {
  if (/^\[[\w-]+:/.test(utility)) return utility.split(':')[0]; // [mask-type:alpha]
  const parts = utility.split(SLASH)[0]!.split(DASH); // less an opacity or line height: bg-primary/10
  // The longest root that takes the rest as its value: `border-x-2` is `border-x` with 2.
  for (let n = parts.length; n; n--) {
    const value = parts.slice(n).join('-');
    for (const [group, ...values] of rules.get(parts.slice(0, n).join('-')) ?? [])
      if (values.some((v) => KINDS[v]?.test(value) ?? v === value)) return group;
  }
}

/** Variants that style another element or depend on their place: kept in place, the rest sorted between them. */
const POSITIONAL =
  /^(\[.*|\*\*?|after|before|backdrop|marker|placeholder|selection|file|first-l(etter|ine)|details-content)$/;

const known = new Map<string, string[] | null>();

/**
 * What a class sets: its group, then the groups it covers, each keyed by its variants (in a
 * canonical order: `focus:hover:` is `hover:focus:`) and mark; null for a class not in the table.
 */
function keysOf(cls: string): string[] | null {
  let keys = known.get(cls);
  if (keys !== undefined) return keys;
  const variants = cls.split(VARIANT_END);
  const utility = variants.pop() as string;
  const group = groupOf(utility.replace(/^!?-?|!$/g, ''));
  keys = null;
  if (group) {
    const key: string[] = [];
    let run: string[] = [];
    for (const v of [...variants, /^!|!$/.test(utility) ? '[!]' : '[]'])
      if (POSITIONAL.test(v)) {
        key.push(...run.sort(), v);
        run = [];
      } else run.push(v);
    keys = [group, ...(covers.get(group) ?? [])].map((g) => `${key.join(':')}:${g}`);
  }
  if (known.size > 5000) known.clear(); // class names come from the source, so this hardly happens
  known.set(cls, keys);
  return keys;
}

const merged = new Map<string, string>();

/** tailwind-merge's contract: the classes in their order, less those a later class overrides. */
export function mergeClasses(classList: string): string {
  let result = merged.get(classList); // a component passes the same list on every render
  if (result !== undefined) return result;
  const taken = new Set<string>();
  const kept: string[] = [];
  for (const cls of (classList.match(/\S+/g) ?? []).reverse()) {
    const keys = keysOf(cls);
    if (keys && taken.has(keys[0]!)) continue;
    for (const key of keys ?? []) taken.add(key);
    kept.push(cls);
  }
  result = kept.reverse().join(' ');
  if (merged.size > 1000) merged.clear();
  merged.set(classList, result);
  return result;
}
