/** How the API client authenticates: implemented by the session store. */
export interface ApiAuth {
  /** The access token to send as a bearer token, or null when there is none. */
  getAccessToken(): string | null;
  /**
   * A protected call sent with `rejectedToken` answered 401: returns a token worth one retry (a
   * fresher one, after a refresh if needed), or null when there is none (the session is gone).
   */
  renewAccessToken(rejectedToken: string | null): Promise<string | null>;
}
