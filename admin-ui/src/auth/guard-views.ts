import { canAccess } from '@fitting-room/shared';
import { AccessDenied, type ResourceProps } from 'react-admin';

type Views = Pick<ResourceProps, 'list' | 'show' | 'edit' | 'create'>;
const VIEW_ACTIONS = ['list', 'show', 'edit', 'create'] as const;

/**
 * A resource's props (its name and pages) as `role` may open them: a page the access policy refuses is the denial
 * itself, decided synchronously before anything mounts. react-admin's own check answers
 * asynchronously, and its list asks the API as soon as that answer comes, even when it is "no"
 * (ra-core 5's useListController enables the query once the check is no longer pending): a support
 * agent opening /admin/payments made the API refuse a request before the denial showed.
 */
export function guardViews<T extends Views>(role: string, resource: string, views: T): T & { name: string } {
  const guarded = { ...views, name: resource };
  for (const action of VIEW_ACTIONS) {
    if (views[action] && !canAccess(role, resource, action)) guarded[action] = AccessDenied;
  }
  return guarded;
}
