import { paths } from '../../app/paths';

/** A category screen of the dashboard: its URL segment, its label, and its id in the API's catalogue. */
export interface DashboardCategory {
  slug: string;
  label: string;
  categoryId: 'active_wear' | 'dress' | 'pajamas' | 'bikini' | 'lingerie' | 'spicy';
}

/**
 * The category screens, in the sidebar's order (docs/product.md). The labels are shown only until
 * the catalogue has loaded; then each link reads the catalogue's one name of its category
 * (DashboardNav), the name of its header too.
 */
export const dashboardCategories: readonly DashboardCategory[] = [
  { slug: 'active-wear', label: 'Active Wear', categoryId: 'active_wear' },
  { slug: 'dress', label: 'Dresses', categoryId: 'dress' },
  { slug: 'pajamas', label: 'Pajamas', categoryId: 'pajamas' },
  { slug: 'bikini', label: 'Bikini', categoryId: 'bikini' },
  { slug: 'lingerie', label: 'Lingerie', categoryId: 'lingerie' },
  { slug: 'spicy', label: 'Spicy', categoryId: 'spicy' },
];

export const categoryPath = (category: DashboardCategory) => `${paths.dashboard}/${category.slug}`;

export interface DashboardNavItem {
  to: string;
  label: string;
  /** For a category screen: its slug, so the link can be hidden when the catalogue leaves it out. */
  categorySlug?: string;
}

/** The sidebar's main links. */
export const mainNavItems: readonly DashboardNavItem[] = [
  { to: paths.generations, label: 'All Generations' },
  ...dashboardCategories.map((category) => ({ to: categoryPath(category), label: category.label, categorySlug: category.slug })),
];

/** The sidebar's bottom links. */
export const accountNavItems: readonly DashboardNavItem[] = [
  { to: paths.profile, label: 'Profile' },
  { to: paths.subscription, label: 'Subscription' },
  { to: paths.tickets, label: 'My Tickets' },
  { to: paths.settings, label: 'Settings' },
];
