package io.chronix.engine.catalog;

import io.chronix.engine.error.StorageIoException;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import io.chronix.engine.segment.SegmentColumns;
import io.chronix.engine.segment.SegmentFile;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * <b>Interim</b> segment store: each segment is an Arrow IPC file under the {@code .csx} name. It
 * exists only so that flush, recovery and reads could be built and tested before the {@code .csx}
 * writer and reader ({@code io.chronix.engine.segment}) existed; {@code CsxSegmentStore} replaces
 * it as the engine's default as soon as those compile. Kept for tests of the engine that want a
 * segment store independent of the {@code .csx} codecs.
 *
 * <p>Publishes like the real one: write to {@code tmp/}, fsync, rename, fsync the directory.
 * The rename goes through {@link Files#move} because {@link FileIO} has no rename.
 */
public final class ArrowIpcSegmentStore implements SegmentStore {

    private final Path segmentsDir;
    private final Path tmpDir;
    private final FileIO io;
    private final BufferAllocator allocator = new RootAllocator();

    public ArrowIpcSegmentStore(FileIO io, Path segmentsDir, Path tmpDir) {
        this.io = io;
        this.segmentsDir = segmentsDir;
        this.tmpDir = tmpDir;
    }

    @Override
    public long write(SegmentFile file, SegmentColumns columns, long maxWalSequence) {
        Path target = file.resolve(segmentsDir);
        Path tmp = tmpDir.resolve(file.fileName() + ".tmp");
        List<Column> cols = new ArrayList<>();
        cols.add(Column.time());
        columns.tags().stream().map(SegmentColumns.TagColumn::name).sorted().forEach(n -> cols.add(Column.tag(n)));
        columns.fields().stream().sorted((a, b) -> a.name().compareTo(b.name())).forEach(f -> cols.add(Column.field(f.name(), f.type())));
        int n = columns.rowCount();
        try (BufferAllocator child = allocator.newChildAllocator("segment-write", 0, Long.MAX_VALUE);
                VectorSchemaRoot root = VectorSchemaRoot.create(MeasurementSchema.toArrow(cols), child)) {
            root.allocateNew();
            TimeStampVector time = (TimeStampVector) root.getVector(Column.TIME);
            for (int i = 0; i < n; i++) {
                time.setSafe(i, columns.time()[i]);
            }
            time.setValueCount(n);
            for (SegmentColumns.TagColumn t : columns.tags()) {
                VarCharVector v = (VarCharVector) root.getVector(t.name());
                for (int i = 0; i < n; i++) {
                    if (t.values()[i] == null) {
                        v.setNull(i);
                    } else {
                        v.setSafe(i, t.values()[i].getBytes(StandardCharsets.UTF_8));
                    }
                }
                v.setValueCount(n);
            }
            for (SegmentColumns.FieldColumn f : columns.fields()) {
                FieldVector v = root.getVector(f.name());
                for (int i = 0; i < n; i++) {
                    if (!f.isPresent(i)) {
                        v.setNull(i);
                        continue;
                    }
                    switch (f.type()) {
                        case FLOAT -> ((Float8Vector) v).setSafe(i, f.doubles()[i]);
                        case INTEGER -> ((BigIntVector) v).setSafe(i, f.longs()[i]);
                        case UNSIGNED -> ((UInt8Vector) v).setSafe(i, f.longs()[i]);
                        case BOOLEAN -> ((BitVector) v).setSafe(i, f.booleans()[i] ? 1 : 0);
                        case STRING -> ((VarCharVector) v).setSafe(i, f.strings()[i].getBytes(StandardCharsets.UTF_8));
                    }
                }
                v.setValueCount(n);
            }
            root.setRowCount(n);
            io.createDirectories(tmpDir);
            io.createDirectories(target.getParent());
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    ArrowFileWriter w = new ArrowFileWriter(root, null, ch)) {
                w.start();
                w.writeBatch();
                w.end();
                ch.force(true);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            io.syncDirectory(target.getParent());
            return io.size(target);
        } catch (IOException e) {
            throw new StorageIoException("write segment", target, -1, e);
        }
    }

    @Override
    public void read(SegmentFile file, List<String> columns, long from, long to, BufferAllocator alloc,
            Consumer<VectorSchemaRoot> sink) {
        Path path = file.resolve(segmentsDir);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ);
                ArrowFileReader r = new ArrowFileReader(ch, alloc)) {
            while (r.loadNextBatch()) {
                sink.accept(r.getVectorSchemaRoot());
            }
        } catch (IOException e) {
            throw new StorageIoException("read segment", path, -1, e);
        }
    }

    @Override
    public void delete(SegmentFile file) {
        Path path = file.resolve(segmentsDir);
        try {
            io.delete(path);
            io.delete(file.resolveSidecar(segmentsDir));
        } catch (IOException e) {
            throw new StorageIoException("delete segment", path, -1, e);
        }
    }

    static boolean isNumeric(FieldType t) {
        return t != FieldType.STRING;
    }
}
