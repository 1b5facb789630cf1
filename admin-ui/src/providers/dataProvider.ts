import simpleRestProvider from 'ra-data-simple-rest';

/**
 * The console's data layer: the API's admin routes speak the ra-data-simple-rest dialect
 * (`sort`, `range`, `filter` query parameters; `Content-Range` header), same origin.
 */
export const dataProvider = simpleRestProvider('/api/admin');
