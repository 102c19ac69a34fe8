package io.chronix.api.embedded;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when no external database is configured ({@code spring.datasource.url} unset). */
final class NoExternalDatabase implements Condition {

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        String url = context.getEnvironment().getProperty("spring.datasource.url");
        return url == null || url.isBlank();
    }
}
