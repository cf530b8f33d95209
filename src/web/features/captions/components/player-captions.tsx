import type { CaptionTrack } from "@contract";
import { CaptionsIcon, CaptionsOffIcon, ChevronDownIcon, ScrollTextIcon } from "lucide-react";
import { useCallback, useEffect, useId, useState } from "react";
import { Button } from "../../../components/ui/button";
import { ScrollRegion } from "../../../components/ui/scroll-region";
import { cn } from "../../../lib/utils";
import { useModuleMedia } from "../api/get-module-media";

/** The module's caption tracks, as children of its <video>. */
export function CaptionTracks({ courseId, moduleId }: { courseId: string; moduleId: string }) {
  const { data } = useModuleMedia(courseId, moduleId);
  return (
    <>
      {data?.captions.map((track) => (
        <track
          key={track.src}
          kind="captions"
          srcLang={track.language}
          label={track.label}
          src={track.src}
        />
      ))}
    </>
  );
}

/** The learner's choice, kept for the next module and the next visit. */
type Preference = { on: boolean; language: string | null };
const PREFERENCE_KEY = "credo.captions";

function readPreference(): Preference {
  try {
    const stored = JSON.parse(localStorage.getItem(PREFERENCE_KEY) ?? "null") as unknown;
    if (stored && typeof stored === "object" && "on" in stored) {
      const { on, language } = stored as { on: unknown; language: unknown };
      return { on: on === true, language: typeof language === "string" ? language : null };
    }
  } catch {
    // Storage may be unavailable (private mode) or hold something else: start with captions off.
  }
  return { on: false, language: null };
}

function writePreference(preference: Preference) {
  try {
    localStorage.setItem(PREFERENCE_KEY, JSON.stringify(preference));
  } catch {
    // Not kept; the choice still applies to this page.
  }
}

/** The preferred language when the module has it, else the browser's language, else the first. */
function chooseLanguage(tracks: CaptionTrack[], preferred: string | null): string | undefined {
  const has = (language: string | null) => tracks.find((t) => t.language === language)?.language;
  const browser = navigator.language.toLowerCase();
  return (
    has(preferred) ??
    tracks.find((t) => t.language.toLowerCase() === browser)?.language ??
    tracks.find((t) => t.language.split("-")[0] === browser.split("-")[0])?.language ??
    tracks[0]?.language
  );
}

const captionTracksOf = (video: HTMLVideoElement) =>
  Array.from(video.textTracks).filter((t) => t.kind === "captions" || t.kind === "subtitles");

/**
 * Under the video: a Captions switch (and a language choice when there are several) that
 * shows a track through the TextTrack API, and the module's transcript in a collapsible
 * section. The video's own controls may turn captions on or off too; the switch follows them.
 */
export function PlayerCaptions({
  courseId,
  moduleId,
  video,
}: {
  courseId: string;
  moduleId: string;
  video: HTMLVideoElement | null;
}) {
  const { data } = useModuleMedia(courseId, moduleId);
  const tracks = data?.captions ?? [];
  const [preference, setPreference] = useState(readPreference);
  const language = chooseLanguage(tracks, preference.language);
  const on = preference.on && language !== undefined;

  const choose = useCallback((next: Preference) => {
    setPreference(next);
    writePreference(next);
  }, []);

  // Show the chosen track and no other, now and whenever the browser adds a track.
  useEffect(() => {
    if (!video) return;
    const apply = () => {
      for (const track of captionTracksOf(video)) {
        const mode = on && track.language === language ? "showing" : "disabled";
        if (track.mode !== mode) track.mode = mode;
      }
    };
    apply();
    video.textTracks.addEventListener("addtrack", apply);
    return () => video.textTracks.removeEventListener("addtrack", apply);
  }, [video, on, language]);

  // Follow a choice made in the video's own menu.
  useEffect(() => {
    if (!video) return;
    const follow = () => {
      const showing = captionTracksOf(video).find((t) => t.mode === "showing");
      const next = showing ? { on: true, language: showing.language } : null;
      if (next && (!on || next.language !== language)) choose(next);
      if (!next && on && captionTracksOf(video).length > 0)
        choose({ on: false, language: language ?? null });
    };
    video.textTracks.addEventListener("change", follow);
    return () => video.textTracks.removeEventListener("change", follow);
  }, [video, on, language, choose]);

  if (!data || (tracks.length === 0 && !data.transcript)) return null;
  return (
    <div className="grid gap-3" data-testid="player-captions">
      {tracks.length > 0 ? (
        <div className="flex flex-wrap items-center gap-2">
          <Button
            variant="outline"
            size="sm"
            aria-pressed={on}
            data-testid="captions-toggle"
            onClick={() => choose({ on: !on, language: language ?? null })}
            className={cn(
              on && "border-indigo-300 bg-indigo-50 text-indigo-800 hover:bg-indigo-100",
            )}
          >
            {on ? <CaptionsIcon aria-hidden="true" /> : <CaptionsOffIcon aria-hidden="true" />}
            Captions
          </Button>
          {tracks.length > 1 ? (
            <LanguageChoice
              tracks={tracks}
              value={language ?? ""}
              onChange={(next) => choose({ on: true, language: next })}
            />
          ) : (
            <span className="text-xs text-zinc-600">{tracks[0]!.label}</span>
          )}
        </div>
      ) : null}
      {data.transcript ? <Transcript text={data.transcript} /> : null}
    </div>
  );
}

function LanguageChoice({
  tracks,
  value,
  onChange,
}: {
  tracks: CaptionTrack[];
  value: string;
  onChange: (language: string) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-xs font-medium text-zinc-600">
        Language
      </label>
      <div className="relative">
        <select
          id={id}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
          className="h-8 appearance-none rounded-lg border border-zinc-300 bg-white pr-8 pl-2.5 text-sm text-zinc-900 shadow-xs focus-visible:border-indigo-500 focus-visible:ring-2 focus-visible:ring-indigo-500/30 focus-visible:outline-none"
        >
          {tracks.map((track) => (
            <option key={track.language} value={track.language} lang={track.language}>
              {track.label}
            </option>
          ))}
        </select>
        <ChevronDownIcon
          className="pointer-events-none absolute top-1/2 right-2 size-4 -translate-y-1/2 text-zinc-500"
          aria-hidden="true"
        />
      </div>
    </div>
  );
}

/** The transcript, closed until asked for: it is long, and most learners watch instead. */
function Transcript({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="rounded-2xl border border-zinc-200 bg-white shadow-xs shadow-zinc-950/5"
    >
      <h3 id={`${id}-heading`} className="text-base">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          onClick={() => setOpen((v) => !v)}
          className="flex w-full items-center gap-2.5 rounded-2xl px-5 py-3.5 text-left text-sm font-semibold text-zinc-900 hover:bg-zinc-50 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none sm:px-6"
        >
          <ScrollTextIcon className="size-4 text-indigo-700" aria-hidden="true" />
          Transcript
          <ChevronDownIcon
            className={cn(
              "ml-auto size-4 text-zinc-500 transition-transform",
              open && "rotate-180",
            )}
            aria-hidden="true"
          />
        </button>
      </h3>
      <div
        id={`${id}-body`}
        hidden={!open}
        className="border-t border-zinc-100 px-5 py-4 sm:px-6"
        data-testid="transcript"
      >
        {/* A region that takes focus, so a keyboard can scroll a long transcript. */}
        <ScrollRegion
          aria-label="Transcript text"
          className="max-h-96 overflow-y-auto rounded-md text-[15px] leading-7 whitespace-pre-line text-zinc-800"
        >
          {text}
        </ScrollRegion>
      </div>
    </section>
  );
}
