package io.chronix.engine.tool;

import io.chronix.engine.catalog.Catalog;
import io.chronix.engine.codec.WalCodec;
import io.chronix.engine.codec.WalEntry;
import io.chronix.engine.error.EngineException;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.schema.SchemaRegistry.CatalogDeclaration;
import io.chronix.engine.wal.WalReader;
import io.chronix.engine.wal.WalRecord;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code wal verify} checks beyond the frames: that the engine's replay can apply every record
 * it would replay, in the order the log holds them. Replay starts from the catalog's schema
 * declarations and skips every record at or below the catalog's WAL floor; each {@code Schema}
 * record adds declarations; each {@code Data}/{@code Batch} record's fields must then be declared,
 * with the type the record gives them. This reports, with file, offset and sequence:
 *
 * <ul>
 *   <li>{@link Kind#OUT_OF_ORDER}: a field declared only by a later {@code Schema} record — written
 *       by an engine before the ordering rule; replay applies the later declaration and opens;
 *   <li>{@link Kind#UNDECLARED}: a field declared nowhere — its {@code Schema} record was never
 *       logged by an engine before the rule; replay declares it from the record's own type and opens;
 *   <li>{@link Kind#TYPE_CONFLICT}, {@link Kind#UNDECODABLE}, {@link Kind#UNSUPPORTED}: records the
 *       engine refuses to open on.
 * </ul>
 *
 * Without a catalog beside the WAL (a log copied elsewhere) the check starts from no declarations
 * and no floor; if the log was truncated (its first record is above sequence 1), a field declared
 * nowhere in it may be in the catalog it came from, so that is reported as {@link Kind#UNKNOWN}.
 *
 * <p>Public for tests that check a log the engine left (e.g. after a simulated power loss) through
 * their own {@link FileIO}; the tool prints its result.
 */
public final class WalReplayCheck {

    public enum Kind {
        OUT_OF_ORDER(false, "out of order"),
        UNDECLARED(false, "undeclared"),
        TYPE_CONFLICT(true, "type conflict"),
        UNDECODABLE(true, "undecodable"),
        UNSUPPORTED(true, "unsupported"),
        UNKNOWN(false, "not declared in this log");

        /** Whether the engine refuses to open on such a record. */
        public final boolean blocksOpen;
        final String label;

        Kind(boolean blocksOpen, String label) {
            this.blocksOpen = blocksOpen;
            this.label = label;
        }
    }

    public record Finding(Kind kind, Path file, long offset, long sequence, String what) {
    }

    /**
     * @param catalog whether a catalog was found beside the WAL
     * @param floor the catalog's WAL floor: records at or below it are neither replayed nor checked
     * @param checked records above the floor that were checked
     */
    public record Result(boolean catalog, int catalogDeclarations, long floor, long checked, List<Finding> findings) {
        public boolean blocksOpen() {
            return findings.stream().anyMatch(f -> f.kind().blocksOpen);
        }

        /** Records the engine opens on, but that the writer's ordering rule would not have produced. */
        public boolean outOfOrder() {
            return findings.stream().anyMatch(f -> f.kind() == Kind.OUT_OF_ORDER || f.kind() == Kind.UNDECLARED);
        }
    }

    private record Miss(WalRecord at, String measurement, String field, FieldType type) {
    }

    private final Map<String, FieldType> declared = new HashMap<>();
    /** Fields a record used before any declaration, by key, until a Schema record declares them. */
    private final Map<String, Miss> misses = new LinkedHashMap<>();
    private final List<Finding> findings = new ArrayList<>();
    private long checked;
    private long firstSequence = Long.MAX_VALUE;

    private WalReplayCheck() {
    }

    /** Checks the log in {@code walDir} against the catalog of the namespace it belongs to, if there is one. */
    public static Result check(FileIO io, Path walDir) {
        Path parent = walDir.getParent();
        Optional<Catalog> catalog = parent != null && walDir.getFileName().toString().equals("wal")
                ? Catalog.read(io, parent) : Optional.empty();
        List<CatalogDeclaration> decls = catalog.map(Catalog::declarations).orElse(List.of());
        long floor = catalog.map(Catalog::walFloor).orElse(0L);
        WalReplayCheck check = new WalReplayCheck();
        for (CatalogDeclaration d : decls) {
            if (d.type() != null) {
                check.declared.put(key(d.measurement(), d.column()), d.type());
            }
        }
        WalReader.scan(io, walDir, r -> {
            if (r.sequence() > floor) {
                check.record(r);
            }
        });
        boolean truncated = check.firstSequence != Long.MAX_VALUE && check.firstSequence > 1;
        for (Miss m : check.misses.values()) {
            Kind kind = catalog.isEmpty() && truncated ? Kind.UNKNOWN : Kind.UNDECLARED;
            check.add(kind, m.at(), field(m.measurement(), m.field(), m.type()) + (kind == Kind.UNKNOWN
                    ? " is declared by no Schema record of this log, which starts at sequence " + check.firstSequence
                            + "; the catalog it belongs to may declare it"
                    : " is declared neither in the catalog nor by any Schema record of the WAL; replay declares it from this record's own type and opens"));
        }
        check.findings.sort(Comparator.comparingLong(Finding::sequence));
        return new Result(catalog.isPresent(), decls.size(), floor, check.checked, List.copyOf(check.findings));
    }

    private void record(WalRecord r) {
        checked++;
        firstSequence = Math.min(firstSequence, r.sequence());
        WalEntry entry;
        try {
            entry = WalCodec.decode(r.payload());
        } catch (EngineException e) {
            add(Kind.UNDECODABLE, r, "payload does not decode: " + e.getMessage());
            return;
        }
        switch (entry) {
            case WalEntry.Schema s -> {
                for (WalEntry.FieldDeclaration d : s.fields()) {
                    declare(d, r);
                }
            }
            case WalEntry.Points p -> use(p.points(), r);
            case WalEntry.Tombstone t -> add(Kind.UNSUPPORTED, r, "a Tombstone record: deletes are recorded in the catalog, "
                    + "and replay refuses one in the WAL");
        }
    }

    private void declare(WalEntry.FieldDeclaration d, WalRecord r) {
        String k = key(d.measurement(), d.field());
        Miss miss = misses.remove(k);
        if (miss != null) {
            // replay meets the using record first and looks ahead to this declaration
            if (miss.type() == d.type()) {
                add(Kind.OUT_OF_ORDER, miss.at(), field(d.measurement(), d.field(), d.type())
                        + " is declared only by the later Schema record at sequence " + r.sequence()
                        + "; replay applies that declaration early and opens");
            } else {
                add(Kind.TYPE_CONFLICT, miss.at(), field(d.measurement(), d.field(), miss.type())
                        + " is declared " + d.type() + " by the Schema record at sequence " + r.sequence());
            }
            declared.put(k, d.type());
            return;
        }
        FieldType before = declared.putIfAbsent(k, d.type());
        if (before != null && before != d.type()) {
            add(Kind.TYPE_CONFLICT, r, "it declares field \"" + d.field() + "\" of measurement \"" + d.measurement() + "\" as "
                    + d.type() + ", declared " + before + " before");
        }
    }

    private void use(PointBatch b, WalRecord r) {
        for (int p = 0; p < b.size(); p++) {
            for (int f = 0; f < b.fieldCount(p); f++) {
                String m = b.measurement(p);
                String name = b.fieldName(p, f);
                FieldType offered = b.fieldType(p, f);
                String k = key(m, name);
                FieldType known = declared.get(k);
                if (known == null) {
                    Miss earlier = misses.get(k);
                    if (earlier == null) {
                        misses.put(k, new Miss(r, m, name, offered));
                    } else if (earlier.type() != offered) {
                        add(Kind.TYPE_CONFLICT, r, "field \"" + name + "\" of measurement \"" + m + "\" is " + offered
                                + " in this record but " + earlier.type() + " in the record at sequence " + earlier.at().sequence());
                        return;
                    }
                } else if (known != offered) {
                    add(Kind.TYPE_CONFLICT, r, "field \"" + name + "\" of measurement \"" + m + "\" is " + offered
                            + " in this record but declared " + known);
                    return; // one finding per record is enough to name it
                }
            }
        }
    }

    private void add(Kind kind, WalRecord r, String what) {
        findings.add(new Finding(kind, r.file(), r.offset(), r.sequence(), what));
    }

    private static String field(String measurement, String field, FieldType type) {
        return "field \"" + field + "\" (" + type + ") of measurement \"" + measurement + "\"";
    }

    private static String key(String measurement, String field) {
        return measurement + '\0' + field;
    }
}
