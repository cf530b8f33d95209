import { QueryBuilder } from "drizzle-orm/pg-core";
import { identityProviders } from "./identity-providers.table";

/**
 * Identity providers by name, for lists that say who created a learner ("Created by sign-on
 * (Acme ID)"): a subquery other features join in their own statement. No settings, no secrets.
 */
export const identityProviderNames = new QueryBuilder()
  .select({ id: identityProviders.id, name: identityProviders.name })
  .from(identityProviders)
  .as("identity_provider_names");
