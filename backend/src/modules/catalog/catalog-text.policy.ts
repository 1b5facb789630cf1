/**
 * Words no catalogue text may contain (docs/product.md: no nudity, nothing school-themed or
 * suggesting a minor). The catalogue's tests hold every name, description, prompt text and hint
 * to it; it is a guard on our own copy, not a filter for what users type.
 */
export const FORBIDDEN_WORDS =
  /topless|nud(e|ity)|naked|\bbare\b|breast|nipple|sheer|see-through|transparent|school|student|teen|girl|child|\bkids?\b|\bminors?\b|underage|\byoung\b|\blittle\b|\bbaby\b|\bdoll\b|lolita|petite|daughter|adolescent|junior/i;
