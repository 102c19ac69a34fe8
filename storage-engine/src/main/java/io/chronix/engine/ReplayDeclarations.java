package io.chronix.engine;

import io.chronix.engine.codec.WalCodec;
import io.chronix.engine.codec.WalEntry;
import io.chronix.engine.error.ColumnConflictException;
import io.chronix.engine.error.EngineException;
import io.chronix.engine.error.FieldTypeConflictException;
import io.chronix.engine.error.WalReplayException;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.schema.SchemaRegistry;
import io.chronix.engine.wal.WalReader;
import io.chronix.engine.wal.WalRecord;
import io.chronix.engine.wal.WalRecordType;

import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The schema side of WAL replay: a record's points are applied only once every field they use is
 * declared, with the type they carry; a record that cannot be made so fails the open with a {@link
 * WalReplayException} naming the file, the record's offset and sequence, and what is missing.
 *
 * <p><b>Records written before their declaration.</b> The WAL's order is meant to carry every
 * dependency: a {@code Schema} record precedes any record using its declarations (see {@link
 * Chronix}'s write path). Engines before that rule could let a writer's points into the WAL ahead
 * of the {@code Schema} record of a field another writer had just committed. When replay meets such
 * a record, it reads the rest of the log once for {@code Schema} records and, if a later one
 * declares each missing field with the type the record gives it, declares it now and applies the
 * record. That is safe because declarations only ever grow and a field's type never changes: the
 * writer validated these points against a registry that already held that very declaration (that
 * is how they got past validation), so the later record states what was already true when the
 * points were written, and declaring it a few records early changes the meaning of no record.
 * (Field ordinals, the only order-dependent part, live for the process and are not persisted.) The
 * declaration then reaches the catalog at the next flush like any other.
 *
 * <p><b>Records whose declaration was never logged.</b> Engines before the rule could also lose the
 * {@code Schema} record altogether: a crash between a writer's commit of a new field and its append,
 * or an append that failed (a full disk) while the field stayed declared in memory, after which later
 * writes of it logged none. Such a record's field is declared by no record of the log and not by the
 * catalog. Its points still carry the field's type, and by the same argument as above that type is
 * the declaration they were validated against; so replay declares the field from the record itself
 * (a WARN names it) rather than leave the namespace unopenable. Only a contradiction — a record
 * giving a field another type than a declaration the log or catalog holds — fails the open.
 *
 * <p>Cost: one {@link SchemaRegistry#validate} per replayed record — what its write paid — and the
 * extra read of the log only when a record needs a later declaration, at most once per open.
 *
 * <p>Threading: used by the opening thread only.
 */
final class ReplayDeclarations {

    private static final System.Logger LOG = System.getLogger(ReplayDeclarations.class.getName());

    private final FileIO io;
    private final Path walDir;
    private final SchemaRegistry schema;
    /** "measurement\0field" → the first Schema declaration after the first record that needed one; read once, lazily. */
    private Map<String, Later> later;
    private int appliedEarly;
    private int declaredFromRecord;

    private record Later(WalEntry.FieldDeclaration declaration, long sequence) {
    }

    ReplayDeclarations(FileIO io, Path walDir, SchemaRegistry schema) {
        this.io = io;
        this.walDir = walDir;
        this.schema = schema;
    }

    /** Applies a replayed {@code Schema} record; a declaration contradicting one already held fails the open. */
    void declare(WalEntry.Schema s, WalRecord record) {
        for (WalEntry.FieldDeclaration d : s.fields()) {
            try {
                schema.declareField(d.measurement(), d.field(), d.type());
            } catch (FieldTypeConflictException e) {
                throw new WalReplayException(record.file(), record.offset(), record.sequence(),
                        "it declares field \"" + d.field() + "\" of measurement \"" + d.measurement() + "\" as " + d.type()
                                + ", declared " + e.stored() + " before", e);
            }
        }
    }

    /**
     * Makes sure every field of {@code points} is declared with the type the points give it, taking
     * a declaration from a later {@code Schema} record where the log holds one (see the class
     * comment).
     *
     * @throws WalReplayException if a field is declared with another type
     */
    void require(PointBatch points, WalRecord record) {
        SchemaRegistry.Plan missing;
        try {
            missing = schema.validate(points);
        } catch (FieldTypeConflictException e) {
            throw new WalReplayException(record.file(), record.offset(), record.sequence(), "field \"" + e.field()
                    + "\" of measurement \"" + e.measurement() + "\" is " + e.offered() + " in this record but declared "
                    + e.stored(), e);
        } catch (ColumnConflictException e) {
            throw new WalReplayException(record.file(), record.offset(), record.sequence(), e.getMessage(), e);
        }
        for (WalEntry.FieldDeclaration needed : missing.fields()) {
            Later found = laterDeclarations(record).get(key(needed.measurement(), needed.field()));
            String what = "field \"" + needed.field() + "\" (" + needed.type() + ") of measurement \"" + needed.measurement() + "\"";
            if (found == null) {
                schema.declareField(needed.measurement(), needed.field(), needed.type());
                declaredFromRecord++;
                LOG.log(Level.WARNING, "WAL record uses a field whose Schema record was never logged (written by an engine "
                        + "without the ordering rule); declared from the record''s own type: file={0} offset={1} sequence={2} "
                        + "measurement={3} field={4} type={5}", record.file(), record.offset(), record.sequence(),
                        needed.measurement(), needed.field(), needed.type());
                continue;
            }
            if (found.declaration().type() != needed.type()) {
                throw new WalReplayException(record.file(), record.offset(), record.sequence(), what
                        + " is declared " + found.declaration().type() + " by the Schema record at sequence " + found.sequence());
            }
            schema.declareField(needed.measurement(), needed.field(), needed.type());
            appliedEarly++;
            LOG.log(Level.WARNING, "WAL record precedes the Schema record it needs (written by an engine without the "
                    + "ordering rule); its declaration applied early: file={0} offset={1} sequence={2} measurement={3} "
                    + "field={4} type={5} declaredAtSequence={6}", record.file(), record.offset(), record.sequence(),
                    needed.measurement(), needed.field(), needed.type(), found.sequence());
        }
    }

    /** Fields declared from a record's own types during this replay: no Schema record declared them. */
    int declaredFromRecord() {
        return declaredFromRecord;
    }

    /** Fields declared ahead of their {@code Schema} record during this replay. */
    int appliedEarly() {
        return appliedEarly;
    }

    /**
     * The Schema declarations of every intact record after {@code from}, read once. A record that
     * does not decode is passed over here: replay reaches it in turn and fails there.
     */
    private Map<String, Later> laterDeclarations(WalRecord from) {
        if (later == null) {
            Map<String, Later> found = new HashMap<>();
            WalReader.scan(io, walDir, r -> {
                if (r.sequence() <= from.sequence() || r.type() != WalRecordType.SCHEMA) {
                    return;
                }
                WalEntry entry;
                try {
                    entry = WalCodec.decode(r.payload());
                } catch (EngineException e) {
                    return;
                }
                if (entry instanceof WalEntry.Schema s) {
                    for (WalEntry.FieldDeclaration d : s.fields()) {
                        found.putIfAbsent(key(d.measurement(), d.field()), new Later(d, r.sequence()));
                    }
                }
            });
            later = found;
        }
        return later;
    }

    private static String key(String measurement, String field) {
        return measurement + '\0' + field;
    }
}
