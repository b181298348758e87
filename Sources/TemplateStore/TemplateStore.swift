// TemplateStore
