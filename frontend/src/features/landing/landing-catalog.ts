import { categoryTemplates } from '../catalog/catalog-helpers';
import type { Catalog } from '../catalog/catalog-helpers';
import type { CatalogCategoryDto, CatalogTemplateDto } from '@fitting-room/api-client';

/**
 * The URL of a template's "before" picture: the same figure in everyday clothes, served by the API
 * beside the template's thumbnail (`/api/catalog/artwork/before-<template id>.svg`).
 */
export function beforeArtworkUrl(template: CatalogTemplateDto): string {
  return template.thumbnail.replace(/\/([^/?]+)\.svg(\?.*)?$/, '/before-$1.svg');
}

/**
 * The landing page's form of a drawn catalogue picture: its WebP (`<id>.webp`, same version), which
 * the browser decodes off the main thread, where each SVG picture is a document built on it (the
 * landing page shows about 18). An uploaded photo (`.jpg`) stays as it is.
 */
export function landingPicture(url: string): string {
  return url.replace(/\.svg(\?|$)/, '.webp$1');
}

export interface CategoryShowcase {
  category: CatalogCategoryDto;
  template: CatalogTemplateDto;
}

/** One template per category (the `index`-th in display order, or the first), in the catalogue's category order. */
export function categoryShowcase(catalog: Catalog, index = 0): CategoryShowcase[] {
  return catalog.categories.flatMap((category) => {
    const templates = categoryTemplates(catalog, category);
    const template = templates[index] ?? templates[0];
    return template ? [{ category, template }] : [];
  });
}

/**
 * The hero's pictures: the catalogue's first look ("after") and the same figure in everyday clothes
 * ("before"), the largest pictures of the first screen. The server's pre-render preloads both.
 */
export function heroPictures(catalog: Catalog): { after: string; before: string } | undefined {
  const look = categoryShowcase(catalog)[0];
  return look ? { after: landingPicture(look.template.thumbnail), before: landingPicture(beforeArtworkUrl(look.template)) } : undefined;
}
