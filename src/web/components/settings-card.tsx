import type { UseQueryResult } from "@tanstack/react-query";
import type { LucideIcon } from "lucide-react";
import { type ReactNode, useId } from "react";
import { loadFailureHint } from "../lib/api-client";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "./ui/card";
import { LoadError } from "./ui/load-error";
import { Skeleton } from "./ui/skeleton";

/**
 * A card of the admin settings around one form: its title and what it is for, two skeleton
 * rows while the settings load, the reason and a retry when they cannot, then the form.
 */
export function SettingsCard<T>(props: {
  icon: LucideIcon;
  title: string;
  description: ReactNode;
  query: UseQueryResult<T>;
  /** What loads, as a screen reader announces it: "Loading the organisation". */
  loadingLabel: string;
  /** The sentence when it cannot be loaded: "The organisation could not be loaded." */
  loadFailure: string;
  /** The height of the second skeleton row, as tall as the form's larger part. */
  skeletonHeight?: "h-16" | "h-40";
  children(data: T): ReactNode;
}) {
  const { icon: Icon, query } = props;
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} className="flex items-center gap-2">
          <Icon className="size-5 text-indigo-600" aria-hidden="true" />
          {props.title}
        </CardTitle>
        <CardDescription>{props.description}</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <div role="status" aria-label={props.loadingLabel} className="grid gap-4">
            <Skeleton className="h-16 rounded-xl" />
            <Skeleton className={`${props.skeletonHeight ?? "h-16"} rounded-xl`} />
          </div>
        ) : query.isError ? (
          <LoadError
            message={loadFailureHint(query.error, props.loadFailure)}
            onRetry={() => void query.refetch()}
          />
        ) : (
          props.children(query.data)
        )}
      </CardContent>
    </Card>
  );
}
