package io.chronix.api.query;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryEncoder;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * An answer whose dictionary-encoded columns are handed on decoded, the others moved over as they
 * are (no copy). DuckDB exports an {@code ENUM} column as an Arrow dictionary: read as it comes,
 * JSON and CSV would print each value's index in the dictionary, and the Arrow IPC writer, given no
 * dictionaries, fails. Decoded, every format prints the values, typed as the dictionary's values
 * ({@code VARCHAR} for an {@code ENUM}). Only top-level columns are decoded; a dictionary nested in a
 * list or struct is handed on as it is.
 *
 * <p>Owns neither the source nor its batches: the caller closes the source, this reader closes only
 * its own root and the decoded vectors. Not thread-safe.
 */
final class DictionaryDecodingReader extends ArrowReader {

    private final ArrowReader source;

    private DictionaryDecodingReader(BufferAllocator allocator, ArrowReader source) {
        super(allocator);
        this.source = source;
    }

    /**
     * {@code source} itself when no top-level column of it is dictionary-encoded; else a reader
     * that decodes, allocating from the same allocator as the source's columns (the query's own).
     */
    static ArrowReader decoding(ArrowReader source) throws IOException {
        for (FieldVector v : source.getVectorSchemaRoot().getFieldVectors()) {
            if (v.getField().getDictionary() != null) {
                return new DictionaryDecodingReader(v.getAllocator(), source);
            }
        }
        return source;
    }

    @Override
    protected Schema readSchema() throws IOException {
        List<Field> fields = new ArrayList<>();
        for (Field f : source.getVectorSchemaRoot().getSchema().getFields()) {
            DictionaryEncoding encoding = f.getDictionary();
            if (encoding == null) {
                fields.add(f);
            } else {
                Field values = dictionary(encoding).getVector().getField();
                fields.add(new Field(f.getName(), new FieldType(f.isNullable(), values.getType(), null, f.getMetadata()),
                        values.getChildren()));
            }
        }
        return new Schema(fields);
    }

    @Override
    public boolean loadNextBatch() throws IOException {
        prepareLoadNextBatch();
        if (!source.loadNextBatch()) {
            return false;
        }
        VectorSchemaRoot from = source.getVectorSchemaRoot();
        VectorSchemaRoot to = getVectorSchemaRoot();
        for (int c = 0; c < from.getFieldVectors().size(); c++) {
            FieldVector column = from.getVector(c);
            DictionaryEncoding encoding = column.getField().getDictionary();
            if (encoding == null) {
                column.makeTransferPair(to.getVector(c)).transfer();
            } else {
                try (ValueVector decoded = DictionaryEncoder.decode(column, dictionary(encoding), allocator)) {
                    decoded.makeTransferPair(to.getVector(c)).transfer();
                }
            }
        }
        to.setRowCount(from.getRowCount());
        return true;
    }

    private Dictionary dictionary(DictionaryEncoding encoding) throws IOException {
        Dictionary d = source.lookup(encoding.getId());
        if (d == null) {
            throw new IOException("the answer names dictionary " + encoding.getId() + " but does not carry it");
        }
        return d;
    }

    @Override
    public long bytesRead() {
        return source.bytesRead();
    }

    @Override
    protected void closeReadSource() {
        // the source is the caller's to close
    }
}
