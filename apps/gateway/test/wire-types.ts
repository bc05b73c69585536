/** What the gateway's replies look like, as far as the end-to-end tests read them. */

/** A created resource: the reply of a `POST` that makes one, read for its id. */
export interface Created {
  id: string;
}

/** A page of a `/v1` list. */
export interface Page<T> {
  data: T[];
}
